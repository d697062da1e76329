// Status: the result of an operation that can fail, with a message a user can
// act on. Modeled on LevelDB's Status; cheap to return when OK.
#pragma once

#include <string>
#include <utility>

namespace ssdp {

class Status {
 public:
  enum class Code { kOk, kInvalidArgument, kNotFound, kResourceExhausted, kInternal };

  Status() = default;
  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string msg) { return Status(Code::kInvalidArgument, std::move(msg)); }
  static Status NotFound(std::string msg) { return Status(Code::kNotFound, std::move(msg)); }
  static Status ResourceExhausted(std::string msg) {
    return Status(Code::kResourceExhausted, std::move(msg));
  }
  static Status Internal(std::string msg) { return Status(Code::kInternal, std::move(msg)); }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  Status(Code code, std::string msg) : code_(code), message_(std::move(msg)) {}
  Code code_ = Code::kOk;
  std::string message_;
};

}  // namespace ssdp
