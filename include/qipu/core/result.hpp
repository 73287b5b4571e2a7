// How a qipu function that can fail on its input says so: it returns a Result, holding
// either the value or the message that says what is wrong and what was expected, and any
// notes on what was accepted although not standard (a repaired FEN clock).
//
// The library's one convention (ARCHITECTURE.md, "Errors"): bad input to a function is a
// Result; a failure of the environment (a file that cannot be read, a database SQLite
// refuses) is an exception (pgn::SourceError, db::DbError) caught where a command reports
// it; a problem found in a game is a Diagnostic on its record, and reading goes on.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "qipu/core/problem.hpp"

namespace qipu {

// What a failed Result is made from: `return Failure{"expected ...", Problem::unknown_move};`.
// A type of its own, so that a Result<std::string> tells a value from an error; the kind
// is for programs, as a Diagnostic's is.
struct Failure {
  std::string message;
  Problem kind = Problem::other;
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}
  Result(Failure f) : error_(std::move(f.message)), kind_(f.kind) {}

  [[nodiscard]] bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }

  // The value; asking a failed Result for it is a programming error, and throws.
  const T& value() const& { return checked(), *value_; }
  T& value() & { return checked(), *value_; }
  T&& value() && { return checked(), std::move(*value_); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

  // What is wrong, when failed; empty otherwise.
  [[nodiscard]] const std::string& error() const { return error_; }
  // Its kind, when failed (Problem::other when the function names none).
  [[nodiscard]] Problem kind() const { return kind_; }
  // What was accepted but not standard; each says what was read and how.
  [[nodiscard]] const std::vector<std::string>& notes() const { return notes_; }
  Result& note(std::string n) { return notes_.push_back(std::move(n)), *this; }

 private:
  void checked() const {
    if (!value_) throw std::logic_error("qipu::Result: no value (" + error_ + ")");
  }
  std::optional<T> value_;
  std::string error_;
  Problem kind_ = Problem::other;
  std::vector<std::string> notes_;
};

// A Result with no value: success, or the message.
template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Failure f) : failed_(true), error_(std::move(f.message)), kind_(f.kind) {}
  [[nodiscard]] bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  [[nodiscard]] const std::string& error() const { return error_; }
  [[nodiscard]] Problem kind() const { return kind_; }
  [[nodiscard]] const std::vector<std::string>& notes() const { return notes_; }
  Result& note(std::string n) { return notes_.push_back(std::move(n)), *this; }

 private:
  bool failed_ = false;
  std::string error_;
  Problem kind_ = Problem::other;
  std::vector<std::string> notes_;
};

}  // namespace qipu
