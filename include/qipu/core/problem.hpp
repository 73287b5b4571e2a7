// The kinds of problem a diagnostic or syntax error reports, each with a stable code
// that programs can test (check --json, convert --to json, the rejects table) while the
// messages stay free to change.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace qipu {

// One list, so that a kind and its code cannot drift apart: the code is the kind's
// name. New kinds go at the end.
#define QIPU_PROBLEMS(X)         \
  X(other)                       \
  X(input_error)                 \
  X(game_too_large)              \
  X(text_before_game)            \
  X(invalid_bytes)               \
  X(encoding_guessed)            \
  X(syntax_error)                \
  X(malformed_tag)               \
  X(tag_too_long)                \
  X(unknown_token)               \
  X(stray_period)                \
  X(nag_out_of_range)            \
  X(unterminated_comment)        \
  X(unclosed_variation)          \
  X(unmatched_paren)             \
  X(variation_too_deep)          \
  X(result_in_variation)         \
  X(misplaced_variation)         \
  X(bad_start_position)          \
  X(fen_repaired)                \
  X(setup_without_fen)           \
  X(unknown_move)                \
  X(illegal_move)                \
  X(ambiguous_move)              \
  X(nonstandard_san)             \
  X(superfluous_disambiguation)  \
  X(wrong_capture_sign)          \
  X(wrong_check_sign)            \
  X(movetext_left_out)           \
  X(missing_result)              \
  X(result_tag_mismatch)         \
  X(result_contradicts_position) \
  X(duplicate_tag)               \
  X(malformed_date)              \
  X(plycount_mismatch)

#define QIPU_PROBLEM_KIND(kind) kind,
enum class Problem : std::uint8_t { QIPU_PROBLEMS(QIPU_PROBLEM_KIND) };
#undef QIPU_PROBLEM_KIND

#define QIPU_PROBLEM_COUNT(kind) +1
inline constexpr int ProblemCount = 0 QIPU_PROBLEMS(QIPU_PROBLEM_COUNT);
#undef QIPU_PROBLEM_COUNT

// The stable snake_case code of a kind ("illegal_move").
constexpr std::string_view problem_code(Problem p) {
#define QIPU_PROBLEM_CODE(kind) #kind,
  constexpr std::string_view codes[] = {QIPU_PROBLEMS(QIPU_PROBLEM_CODE)};
#undef QIPU_PROBLEM_CODE
  auto i = static_cast<std::size_t>(p);
  return i < sizeof codes / sizeof codes[0] ? codes[i] : std::string_view("other");
}

}  // namespace qipu
