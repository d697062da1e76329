#include "scenario/json_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace ssdp {
namespace {

using nlohmann::json;

// Past this many problems the rest are summarised: one mistake (say a wrong
// unit everywhere) can produce hundreds of identical complaints.
constexpr size_t kMaxReportedErrors = 40;
constexpr size_t kMaxValueChars = 60;

// Above 2^64 a float cannot name a uint64_t.
constexpr double kTwoTo64 = 18446744073709551616.0;

size_t CountCodePoints(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;  // skip UTF-8 continuation bytes
  return n;
}

std::string JoinNames(const std::vector<std::string>& names, bool quoted) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) out += ", ";
    out += quoted ? json(names[i]).dump() : names[i];
  }
  return out;
}

size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string Lowercase(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The known name a misspelt one most likely meant, or "" when none is close:
// a case difference, a small typo, or a prefix ("cell" for "cell_type").
std::string ClosestName(const std::string& wrong, const std::vector<std::string>& names) {
  const std::string lower = Lowercase(wrong);
  std::string best;
  size_t best_distance = 3;
  for (const auto& name : names) {
    const std::string candidate = Lowercase(name);
    if (candidate == lower) return name;
    size_t distance = EditDistance(lower, candidate);
    if (distance < best_distance) {
      best_distance = distance;
      best = name;
    }
  }
  if (!best.empty() || lower.size() < 3) return best;
  for (const auto& name : names) {
    if (Lowercase(name).rfind(lower, 0) == 0) return name;
  }
  return "";
}

std::string OutOfRange(const std::string& value_text, const std::string& allowed) {
  return value_text + " is out of range; allowed " + allowed;
}

bool InRange(uint64_t value, const UintRange& range) {
  if (value == 0 && range.zero_also) return true;
  return value >= range.min && value <= range.max;
}

}  // namespace

void ErrorList::Add(const std::string& path, const std::string& problem) {
  messages_.push_back((path.empty() ? std::string("(top level)") : path) + ": " + problem);
}

std::string ErrorList::Joined() const {
  std::string out;
  const size_t shown = std::min(messages_.size(), kMaxReportedErrors);
  for (size_t i = 0; i < shown; ++i) {
    if (i) out += '\n';
    out += messages_[i];
  }
  if (messages_.size() > shown) {
    out += "\n... and " + std::to_string(messages_.size() - shown) + " more problems";
  }
  return out;
}

std::string FormatNumber(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value == std::floor(value) && std::fabs(value) < 1e16) {
    return std::to_string(static_cast<int64_t>(value));
  }
  // The shortest text that reads back as the same double. (snprintf rather
  // than std::to_chars: the WebAssembly toolchain's library lacks the
  // floating-point overloads.)
  char buffer[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

std::string DescribeValue(const json& value) {
  if (value.is_number_float()) return FormatNumber(value.get<double>());
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > kMaxValueChars) text = text.substr(0, kMaxValueChars - 3) + "...";
  return text;
}

std::string DescribeRange(const UintRange& range) {
  std::string out = range.zero_also ? "0 or " : "";
  out += std::to_string(range.min) + ".." + std::to_string(range.max);
  if (range.multiple_of > 1) out += ", a multiple of " + std::to_string(range.multiple_of);
  return out;
}

std::string DescribeRange(const RealRange& range) {
  std::string out = range.zero_also ? "0 or " : "";
  if (range.min_exclusive) {
    out += "above " + FormatNumber(range.min);
    if (!std::isinf(range.max)) out += " up to " + FormatNumber(range.max);
    return out;
  }
  return out + FormatNumber(range.min) + ".." + FormatNumber(range.max);
}

namespace {

// How a JSON value reads as an unsigned integer.
enum class UintParse { kOk, kNotAnInteger, kNotRepresentable };

UintParse ParseUintValue(const json& value, uint64_t* out) {
  if (value.is_number_unsigned()) {
    *out = value.get<uint64_t>();
    return UintParse::kOk;
  }
  if (value.is_number_integer()) {
    int64_t signed_number = value.get<int64_t>();
    if (signed_number < 0) return UintParse::kNotRepresentable;
    *out = uint64_t(signed_number);
    return UintParse::kOk;
  }
  if (value.is_number_float()) {
    // 1e9 and 4096.0 are integers too (as in JavaScript and JSON Schema).
    double real = value.get<double>();
    if (!std::isfinite(real) || real != std::floor(real)) return UintParse::kNotAnInteger;
    if (real < 0 || real >= kTwoTo64) return UintParse::kNotRepresentable;
    *out = uint64_t(real);
    return UintParse::kOk;
  }
  return UintParse::kNotAnInteger;
}

}  // namespace

bool ReadUint(const json& value, const std::string& path, const UintRange& range, ErrorList* errors,
              uint64_t* out) {
  uint64_t number = 0;
  switch (ParseUintValue(value, &number)) {
    case UintParse::kNotAnInteger:
      errors->Add(path, "expected an integer, got " + DescribeValue(value));
      return false;
    case UintParse::kNotRepresentable:
      errors->Add(path, OutOfRange(DescribeValue(value), DescribeRange(range)));
      return false;
    case UintParse::kOk:
      break;
  }
  if (!InRange(number, range)) {
    errors->Add(path, OutOfRange(std::to_string(number), DescribeRange(range)));
    return false;
  }
  if (range.multiple_of > 1 && number % range.multiple_of != 0) {
    errors->Add(path, std::to_string(number) + " is not a multiple of " +
                          std::to_string(range.multiple_of) + "; allowed " + DescribeRange(range));
    return false;
  }
  *out = number;
  return true;
}

bool ReadUintOneOf(const json& value, const std::string& path,
                   std::initializer_list<uint64_t> allowed, ErrorList* errors, uint64_t* out) {
  std::string list;
  for (uint64_t a : allowed) list += (list.empty() ? "" : ", ") + std::to_string(a);
  uint64_t number = 0;
  UintParse parsed = ParseUintValue(value, &number);
  if (parsed == UintParse::kNotAnInteger) {
    errors->Add(path, "expected an integer, got " + DescribeValue(value));
    return false;
  }
  if (parsed == UintParse::kNotRepresentable ||
      std::find(allowed.begin(), allowed.end(), number) == allowed.end()) {
    errors->Add(path, DescribeValue(value) + " is not allowed; allowed values: " + list);
    return false;
  }
  *out = number;
  return true;
}

bool ReadReal(const json& value, const std::string& path, const RealRange& range, ErrorList* errors,
              double* out) {
  if (!value.is_number()) {
    errors->Add(path, "expected a number, got " + DescribeValue(value));
    return false;
  }
  double real = value.get<double>();
  if (!std::isfinite(real)) {
    errors->Add(path, "expected a finite number, got " + DescribeValue(value));
    return false;
  }
  bool ok = range.min_exclusive ? real > range.min : real >= range.min;
  ok = ok && real <= range.max;
  if (!ok && !(range.zero_also && real == 0)) {
    errors->Add(path, OutOfRange(FormatNumber(real), DescribeRange(range)));
    return false;
  }
  *out = real;
  return true;
}

bool ReadBool(const json& value, const std::string& path, ErrorList* errors, bool* out) {
  if (!value.is_boolean()) {
    errors->Add(path, "expected true or false, got " + DescribeValue(value));
    return false;
  }
  *out = value.get<bool>();
  return true;
}

bool ReadString(const json& value, const std::string& path, size_t min_chars, size_t max_chars,
                ErrorList* errors, std::string* out) {
  if (!value.is_string()) {
    errors->Add(path, "expected a string, got " + DescribeValue(value));
    return false;
  }
  const std::string& text = value.get_ref<const std::string&>();
  size_t chars = CountCodePoints(text);
  if (chars < min_chars || chars > max_chars) {
    errors->Add(path, "a string of " + std::to_string(chars) +
                          " characters is out of range; allowed " + std::to_string(min_chars) +
                          ".." + std::to_string(max_chars) + " characters");
    return false;
  }
  *out = text;
  return true;
}

bool ReadName(const json& value, const std::string& path, const std::vector<std::string>& names,
              ErrorList* errors, size_t* index) {
  if (!value.is_string()) {
    errors->Add(path,
                "expected one of " + JoinNames(names, true) + ", got " + DescribeValue(value));
    return false;
  }
  const std::string& text = value.get_ref<const std::string&>();
  auto it = std::find(names.begin(), names.end(), text);
  if (it == names.end()) {
    std::string problem =
        DescribeValue(value) + " is not allowed; allowed: " + JoinNames(names, true);
    std::string closest = ClosestName(text, names);
    if (!closest.empty()) problem += "; did you mean " + json(closest).dump() + "?";
    errors->Add(path, problem);
    return false;
  }
  *index = size_t(it - names.begin());
  return true;
}

std::string ElementPath(const std::string& array_path, size_t index) {
  return array_path + "[" + std::to_string(index) + "]";
}

JsonObjectReader::JsonObjectReader(const json* object, std::string path, ErrorList* errors)
    : object_(object), path_(std::move(path)), errors_(errors) {}

JsonObjectReader JsonObjectReader::ForValue(const json& value, std::string path,
                                            ErrorList* errors) {
  if (!value.is_object()) {
    errors->Add(path, "expected an object, got " + DescribeValue(value));
    return JsonObjectReader(nullptr, std::move(path), errors);
  }
  return JsonObjectReader(&value, std::move(path), errors);
}

const json* JsonObjectReader::Find(const char* key) {
  if (std::find(known_keys_.begin(), known_keys_.end(), key) == known_keys_.end()) {
    known_keys_.emplace_back(key);
  }
  if (object_ == nullptr) return nullptr;
  auto it = object_->find(key);
  return it == object_->end() ? nullptr : &*it;
}

bool JsonObjectReader::Has(const char* key) const {
  return object_ != nullptr && object_->contains(key);
}

std::string JsonObjectReader::PathOf(const char* key) const {
  return path_.empty() ? std::string(key) : path_ + "." + key;
}

void JsonObjectReader::Real(const char* key, double* out, RealRange range) {
  const json* found = Find(key);
  if (found) ReadReal(*found, PathOf(key), range, errors_, out);
}

void JsonObjectReader::Bool(const char* key, bool* out) {
  const json* found = Find(key);
  if (found) ReadBool(*found, PathOf(key), errors_, out);
}

void JsonObjectReader::String(const char* key, std::string* out, size_t min_chars,
                              size_t max_chars) {
  const json* found = Find(key);
  if (found) ReadString(*found, PathOf(key), min_chars, max_chars, errors_, out);
}

JsonObjectReader JsonObjectReader::Object(const char* key) {
  const json* found = Find(key);
  if (found == nullptr) return JsonObjectReader(nullptr, PathOf(key), errors_);
  return ForValue(*found, PathOf(key), errors_);
}

const json* JsonObjectReader::Array(const char* key, size_t min_items, size_t max_items) {
  const json* found = Find(key);
  if (found == nullptr) return nullptr;
  if (!found->is_array()) {
    errors_->Add(PathOf(key), "expected an array, got " + DescribeValue(*found));
    return nullptr;
  }
  if (found->size() < min_items || found->size() > max_items) {
    errors_->Add(PathOf(key), "an array of " + std::to_string(found->size()) +
                                  " entries is out of range; allowed " + std::to_string(min_items) +
                                  ".." + std::to_string(max_items) + " entries");
    return nullptr;
  }
  return found;
}

void JsonObjectReader::RejectUnknownKeys() {
  if (object_ == nullptr) return;
  for (const auto& [key, value] : object_->items()) {
    if (std::find(known_keys_.begin(), known_keys_.end(), key) != known_keys_.end()) continue;
    std::string problem = "unknown key; allowed keys: " + JoinNames(known_keys_, false);
    std::string closest = ClosestName(key, known_keys_);
    if (!closest.empty()) problem += "; did you mean " + json(closest).dump() + "?";
    errors_->Add(PathOf(key.c_str()), problem);
  }
}

}  // namespace ssdp
