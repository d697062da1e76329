// JsonObjectReader: reads typed, range-checked fields out of one JSON object
// and records every problem as "<json path>: <what is wrong>".
//
// Scenario sections are parsed by small functions, one per JSON object, that
// ask a reader for each of their keys in turn. The reader remembers which keys
// were asked for, so a section can reject keys it does not know with the list
// of those it does. Nothing here throws: the model is also built for
// WebAssembly, where exceptions are disabled.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace ssdp {

// Problems found in a document, in the order found.
class ErrorList {
 public:
  // Records "<path>: <problem>". The top level is named "(top level)".
  void Add(const std::string& path, const std::string& problem);

  bool empty() const { return messages_.empty(); }
  size_t size() const { return messages_.size(); }
  const std::vector<std::string>& messages() const { return messages_; }

  // All messages, one per line, first found first. Very long lists are cut
  // short: after the first few dozen, more messages rarely help.
  std::string Joined() const;

 private:
  std::vector<std::string> messages_;
};

// The values an unsigned integer field accepts: min..max, optionally also 0
// (for fields where 0 means "off" or "the default"), optionally only
// multiples of a step.
struct UintRange {
  uint64_t min = 0;
  uint64_t max = std::numeric_limits<uint64_t>::max();
  bool zero_also = false;
  uint64_t multiple_of = 1;
};

// The values a real-number field accepts: min..max (min itself excluded when
// min_exclusive), optionally also 0.
struct RealRange {
  double min = 0;
  double max = std::numeric_limits<double>::infinity();
  bool min_exclusive = false;
  bool zero_also = false;
};

// A JSON value as an error message shows it: strings quoted, long values cut.
std::string DescribeValue(const nlohmann::json& value);

// "1..64", "0 or 1000..10000000", "512..16777216, a multiple of 512".
std::string DescribeRange(const UintRange& range);
std::string DescribeRange(const RealRange& range);

// A number as the user would write it: 0.01, 64, 1000000000.
std::string FormatNumber(double value);

// Single-value readers, for object fields and array elements alike. Each
// returns true and sets *out when the value is acceptable, and otherwise
// records why not under `path` and leaves *out alone.
bool ReadUint(const nlohmann::json& value, const std::string& path, const UintRange& range,
              ErrorList* errors, uint64_t* out);
bool ReadUintOneOf(const nlohmann::json& value, const std::string& path,
                   std::initializer_list<uint64_t> allowed, ErrorList* errors, uint64_t* out);
bool ReadReal(const nlohmann::json& value, const std::string& path, const RealRange& range,
              ErrorList* errors, double* out);
bool ReadBool(const nlohmann::json& value, const std::string& path, ErrorList* errors, bool* out);
// Lengths count Unicode code points, as JSON Schema's minLength/maxLength do.
bool ReadString(const nlohmann::json& value, const std::string& path, size_t min_chars,
                size_t max_chars, ErrorList* errors, std::string* out);
// Accepts one of `names` exactly (case matters) and sets *index to its position.
bool ReadName(const nlohmann::json& value, const std::string& path,
              const std::vector<std::string>& names, ErrorList* errors, size_t* index);

// One enumerator and its spelling in scenario files.
template <typename E>
struct EnumName {
  const char* name;
  E value;
};

class JsonObjectReader {
 public:
  // Reads `object`, found at `path` ("" for the top level). A null object
  // stands for an absent section: every field keeps its default.
  JsonObjectReader(const nlohmann::json* object, std::string path, ErrorList* errors);

  // A reader for `value`, which must be an object; otherwise the problem is
  // recorded and the returned reader reads nothing.
  static JsonObjectReader ForValue(const nlohmann::json& value, std::string path,
                                   ErrorList* errors);

  // Typed fields. An absent key leaves *out at its default.
  template <typename T>
  void Uint(const char* key, T* out, UintRange range) {
    uint64_t value;
    if (range.max > std::numeric_limits<T>::max()) range.max = std::numeric_limits<T>::max();
    const nlohmann::json* found = Find(key);
    if (found && ReadUint(*found, PathOf(key), range, errors_, &value)) *out = T(value);
  }
  template <typename T>
  void UintOneOf(const char* key, T* out, std::initializer_list<uint64_t> allowed) {
    uint64_t value;
    const nlohmann::json* found = Find(key);
    if (found && ReadUintOneOf(*found, PathOf(key), allowed, errors_, &value)) *out = T(value);
  }
  void Real(const char* key, double* out, RealRange range);
  void Bool(const char* key, bool* out);
  void String(const char* key, std::string* out, size_t min_chars, size_t max_chars);
  template <typename E>
  void Enum(const char* key, E* out, std::initializer_list<EnumName<E>> names) {
    const nlohmann::json* found = Find(key);
    if (!found) return;
    std::vector<std::string> spellings;
    for (const auto& n : names) spellings.push_back(n.name);
    size_t index;
    if (ReadName(*found, PathOf(key), spellings, errors_, &index))
      *out = names.begin()[index].value;
  }

  // A nested object. Absent: a reader that reads nothing (defaults apply).
  JsonObjectReader Object(const char* key);

  // A nested array of min_items..max_items elements, or null when absent or
  // unacceptable (the problem is recorded).
  const nlohmann::json* Array(const char* key, size_t min_items, size_t max_items);

  // True when the key is present. Does not count as reading it.
  bool Has(const char* key) const;

  // The JSON path of a key of this object, e.g. "device.geometry.channels".
  std::string PathOf(const char* key) const;
  const std::string& path() const { return path_; }
  ErrorList* errors() const { return errors_; }

  // Records an "unknown key" problem for every key of the object that no
  // accessor asked for. Call it after reading every field of the section.
  void RejectUnknownKeys();

 private:
  // Marks `key` as known and returns its value, or null when absent.
  const nlohmann::json* Find(const char* key);

  const nlohmann::json* object_;
  std::string path_;
  ErrorList* errors_;
  std::vector<std::string> known_keys_;
};

// The JSON path of element `index` of the array at `array_path`.
std::string ElementPath(const std::string& array_path, size_t index);

}  // namespace ssdp
