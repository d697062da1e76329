// ApplyOverride: "json.path=value" edits of a scenario document, the way the
// CLI's --set changes one field of a scenario file without copying it.
#include <cctype>
#include <string>
#include <vector>

#include "scenario/json_reader.h"
#include "scenario/scenario_loader.h"

namespace ssdp {
namespace {

using nlohmann::json;

// One step of a path: an object key, or an array index.
struct PathStep {
  bool is_index = false;
  std::string key;
  size_t index = 0;
};

bool IsKeyCharacter(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '$';
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

// Parses "workload.flows[0].sizes[1].bytes" into steps; returns "" or what
// is wrong with the path.
std::string ParsePath(std::string_view text, std::vector<PathStep>* steps) {
  size_t i = 0;
  while (true) {
    const size_t key_start = i;
    while (i < text.size() && IsKeyCharacter(text[i])) ++i;
    if (i == key_start) {
      return i < text.size() ? "unexpected '" + std::string(1, text[i]) + "' at position " +
                                   std::to_string(i + 1) + "; expected a key"
                             : "a key is missing at the end";
    }
    steps->push_back(PathStep{false, std::string(text.substr(key_start, i - key_start)), 0});
    while (i < text.size() && text[i] == '[') {
      const size_t digits_start = ++i;
      size_t index = 0;
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
        if (index > 1'000'000'000) {
          return "the index at position " + std::to_string(digits_start + 1) + " is too large";
        }
        index = index * 10 + size_t(text[i] - '0');
        ++i;
      }
      if (i == digits_start || i == text.size() || text[i] != ']') {
        return "expected [index] with a non-negative integer index at position " +
               std::to_string(digits_start + 1);
      }
      ++i;
      steps->push_back(PathStep{true, "", index});
    }
    if (i == text.size()) return "";
    if (text[i] != '.') {
      return "unexpected '" + std::string(1, text[i]) + "' at position " + std::to_string(i + 1);
    }
    ++i;
  }
}

std::string StepText(const PathStep& step, bool first) {
  if (step.is_index) return "[" + std::to_string(step.index) + "]";
  return (first ? "" : ".") + step.key;
}

std::string KindOf(const json& value) {
  switch (value.type()) {
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      return "an array";
    case json::value_t::string:
      return "a string";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::null:
      return "null";
    default:
      return "a number";
  }
}

// The value text as JSON if it is JSON, else as a bare string. Text that
// starts like a JSON string, array or object must be valid JSON: taking a
// mistyped array for a string would hide the mistake.
bool ParseValue(std::string_view text, json* value, std::string* problem) {
  text = Trim(text);
  Status status = ParseJsonText(text, value);
  if (status.ok()) return true;
  if (!text.empty() && (text.front() == '[' || text.front() == '{' || text.front() == '"')) {
    *problem = "value: " + status.message();
    return false;
  }
  *value = std::string(text);
  return true;
}

}  // namespace

Status ApplyOverride(json* doc, std::string_view assignment) {
  const std::string context = "override \"" + std::string(assignment) + "\": ";
  const size_t equals = assignment.find('=');
  if (equals == std::string_view::npos) {
    return Status::InvalidArgument(context +
                                   "expected <path>=<value>, e.g. device.geometry.channels=8");
  }
  const std::string_view path_text = Trim(assignment.substr(0, equals));
  if (path_text.empty()) return Status::InvalidArgument(context + "the path before '=' is empty");
  std::vector<PathStep> steps;
  std::string problem = ParsePath(path_text, &steps);
  if (!problem.empty()) {
    return Status::InvalidArgument(context + "bad path \"" + std::string(path_text) +
                                   "\": " + problem +
                                   "; a path is keys separated by '.', with [index] after an "
                                   "array, e.g. workload.flows[0].queue_depth");
  }
  json value;
  if (!ParseValue(assignment.substr(equals + 1), &value, &problem)) {
    return Status::InvalidArgument(context + problem);
  }
  // null removes the field, so that its default applies again.
  const bool remove = value.is_null();

  // Edit a copy, so that a refused override leaves the document unchanged.
  json edited = doc->is_null() ? json::object() : *doc;
  json* node = &edited;
  std::string walked;  // the path so far, for messages
  for (size_t s = 0; s < steps.size(); ++s) {
    const PathStep& step = steps[s];
    const bool last = s + 1 == steps.size();
    const std::string here = walked + StepText(step, s == 0);
    if (step.is_index) {
      if (node->is_null() && remove) break;  // nothing there to remove
      if (node->is_null() && step.index == 0) *node = json::array();
      if (node->is_null()) {
        return Status::InvalidArgument(context + walked + " does not exist; index 0 creates it, " +
                                       "index " + std::to_string(step.index) + " cannot");
      }
      if (!node->is_array()) {
        return Status::InvalidArgument(context + walked + " is " + KindOf(*node) +
                                       ", not an array");
      }
      const size_t size = node->size();
      const bool appends = step.index == size && !remove;
      if (step.index > size || (step.index == size && remove)) {
        return Status::InvalidArgument(
            context + here + ": index " + std::to_string(step.index) +
            " is out of range; the array has " + std::to_string(size) +
            (size == 1 ? " element" : " elements") +
            (remove ? "" : " (index " + std::to_string(size) + " appends one)"));
      }
      if (last) {
        if (remove) {
          node->erase(step.index);
        } else if (appends) {
          node->push_back(value);
        } else {
          (*node)[step.index] = value;
        }
        break;
      }
      if (appends) node->push_back(json());
      node = &(*node)[step.index];
    } else {
      if (node->is_null() && !remove) *node = json::object();
      if (!node->is_object()) {
        return Status::InvalidArgument(context + (walked.empty() ? "(top level)" : walked) +
                                       " is " + KindOf(*node) + ", not an object");
      }
      if (last) {
        if (remove) {
          node->erase(step.key);
        } else {
          (*node)[step.key] = value;
        }
        break;
      }
      auto found = node->find(step.key);
      if (found == node->end()) {
        if (remove) break;  // nothing there to remove
        node = &(*node)[step.key];
      } else {
        node = &*found;
      }
    }
    walked = here;
  }
  *doc = std::move(edited);
  return Status::Ok();
}

}  // namespace ssdp
