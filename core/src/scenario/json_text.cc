// ParseJsonText: JSON text to a document, with errors a user can find.
//
// nlohmann::json silently keeps the last of two equal keys and, without
// exceptions (WebAssembly builds have none), reports no error position. So
// the text is first checked by a SAX pass that records where a syntax error
// is, which keys repeat, and how deep the nesting goes; only then is the
// document built.
#include <string>
#include <unordered_set>
#include <vector>

#include "scenario/json_reader.h"
#include "scenario/scenario_loader.h"

namespace ssdp {
namespace {

using nlohmann::json;

// Scenarios nest five levels deep. A limit keeps a hostile document (say a
// share link of a million '[') from exhausting the stack of whatever later
// walks it recursively.
constexpr size_t kMaxNesting = 64;

class JsonTextChecker : public nlohmann::json_sax<json> {
 public:
  explicit JsonTextChecker(std::string_view text) : text_(text) {}

  bool null() override { return Value(); }
  bool boolean(bool) override { return Value(); }
  bool number_integer(number_integer_t) override { return Value(); }
  bool number_unsigned(number_unsigned_t) override { return Value(); }
  bool number_float(number_float_t, const string_t&) override { return Value(); }
  bool string(string_t&) override { return Value(); }
  bool binary(binary_t&) override { return Value(); }
  bool start_object(std::size_t) override { return Open(false); }
  bool end_object() override { return Close(); }
  bool start_array(std::size_t) override { return Open(true); }
  bool end_array() override { return Close(); }

  bool key(string_t& key) override {
    Frame& frame = frames_.back();
    frame.key = key;
    if (!frame.keys.insert(key).second) {
      duplicates_.Add(CurrentPath(), "duplicate key; a key may appear only once in an object");
    }
    return true;
  }

  bool parse_error(std::size_t position, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& ex) override {
    syntax_error_ = Locate(position) + "invalid JSON: " + Explain(ex.what());
    return false;
  }

  // The first problem found, or "" when the text is a good JSON document.
  std::string Problems() const {
    if (!syntax_error_.empty()) return syntax_error_;
    return duplicates_.Joined();
  }

 private:
  struct Frame {
    bool is_array = false;
    size_t elements = 0;  // arrays: elements begun so far
    std::string key;      // objects: the key being read
    std::unordered_set<std::string> keys;
  };

  bool Value() {
    if (!frames_.empty() && frames_.back().is_array) ++frames_.back().elements;
    return true;
  }

  bool Open(bool is_array) {
    Value();
    if (frames_.size() >= kMaxNesting) {
      syntax_error_ = "invalid JSON: nesting deeper than " + std::to_string(kMaxNesting) +
                      " levels, at " + CurrentPath();
      return false;
    }
    frames_.push_back(Frame{is_array, 0, {}, {}});
    return true;
  }

  bool Close() {
    frames_.pop_back();
    return true;
  }

  std::string CurrentPath() const {
    std::string path;
    for (const Frame& frame : frames_) {
      if (frame.is_array) {
        path += "[" + std::to_string(frame.elements == 0 ? 0 : frame.elements - 1) + "]";
      } else {
        if (!path.empty()) path += '.';
        path += frame.key;
      }
    }
    return path;
  }

  // "line 3, column 7: " for a byte offset, counted the way editors count
  // (lines from 1, columns in bytes from 1).
  std::string Locate(size_t position) const {
    if (position > text_.size()) position = text_.size();
    const size_t last = position == 0 ? 0 : position - 1;
    size_t line = 1, line_start = 0;
    for (size_t i = 0; i < last; ++i) {
      if (text_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    const size_t column = position > line_start ? position - line_start : 1;
    return "line " + std::to_string(line) + ", column " + std::to_string(column) + ": ";
  }

  // nlohmann's message without its exception id and its own position.
  static std::string Explain(std::string message) {
    if (message.rfind("[json.exception.", 0) == 0) {
      size_t end = message.find("] ");
      if (end != std::string::npos) message.erase(0, end + 2);
    }
    if (message.rfind("parse error at line ", 0) == 0) {
      size_t end = message.find(": ");
      if (end != std::string::npos) message.erase(0, end + 2);
    }
    return message;
  }

  std::string_view text_;
  std::vector<Frame> frames_;
  ErrorList duplicates_;
  std::string syntax_error_;
};

}  // namespace

Status ParseJsonText(std::string_view json_text, json* doc) {
  JsonTextChecker checker(json_text);
  json::sax_parse(json_text, &checker);
  std::string problems = checker.Problems();
  if (!problems.empty()) return Status::InvalidArgument(problems);
  *doc = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (doc->is_discarded()) return Status::Internal("JSON text passed its check but did not parse");
  return Status::Ok();
}

}  // namespace ssdp
