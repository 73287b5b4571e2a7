// PEGTL grammar of PGN import format: one struct per rule, no actions.
//
// The grammar parses ONE game chunk (the chunker cuts the input at game
// boundaries). Every token it does not know is matched by unknown_token, so
// the parse goes on after bad input; only the must<> points below end a game
// early, each with its message in error_message<>.
//
// The move-token rule takes its state through `move_token_length(p, end, states...)`,
// found by argument-dependent lookup on the parser's state type, so this header knows
// nothing of the reader or of notation.
#pragma once

#include <tao/pegtl.hpp>
#include <tao/pegtl/contrib/analyze_traits.hpp>

#include "qipu/grammar/pgn_words.hpp"

namespace qipu::grammar::pgn {

namespace pegtl = tao::pegtl;
using pegtl::any;
using pegtl::digit;
using pegtl::eof;
using pegtl::if_must;
using pegtl::not_one;
using pegtl::one;
using pegtl::opt;
using pegtl::plus;
using pegtl::seq;
using pegtl::sor;
using pegtl::star;
using pegtl::string;

// Messages for the must<> points; nullptr for rules that are never a must<>.
template <typename Rule>
inline constexpr const char* error_message = nullptr;

// Base of the custom rules below: consumes the length a scanner returns.
template <typename Derived>
struct scanned {
  using rule_t = Derived;
  using subs_t = pegtl::empty_list;
  template <pegtl::apply_mode, pegtl::rewind_mode, template <typename...> class, template <typename...> class,
            typename ParseInput, typename... States>
  static bool match(ParseInput& in, States&... st) {
    std::size_t n = Derived::scan(in.current(), in.end(), st...);
    if (n == 0 || n == std::string_view::npos) return false;
    in.bump(n);
    return true;
  }
};

// ---- whitespace, ; comments, % escape lines --------------------------------
// The separators Chinese text puts between moves (， ； 、 and the ideographic space).
struct separator : scanned<separator> {
  template <typename... S>
  static std::size_t scan(const char* p, const char* end, S&...) {
    return separator_length(p, end);
  }
};
struct blank : plus<pegtl::ascii::ranges<'\t', '\r', ' ', ' '>> {};  // space, \t \n \v \f \r
struct space : star<one<' ', '\t'>> {};
struct rest_of_line : star<not_one<'\n', '\r'>> {};
// True at the start of the chunk or just after a line break.
struct at_line_start {
  using rule_t = at_line_start;
  using subs_t = pegtl::empty_list;
  template <typename ParseInput>
  static bool match(ParseInput& in) {
    return in.current() == in.begin() || in.current()[-1] == '\n' || in.current()[-1] == '\r';
  }
};
struct line_comment_text : rest_of_line {};
struct line_comment : seq<one<';'>, line_comment_text> {};
struct escape_line : seq<at_line_start, one<'%'>, rest_of_line> {};

// ---- { } comments ------------------------------------------------------------
// Everything up to the next '}' (found with memchr); fails if there is none.
struct comment_text {
  using rule_t = comment_text;
  using subs_t = pegtl::empty_list;
  template <typename ParseInput>
  static bool match(ParseInput& in) {
    const void* close = std::memchr(in.current(), '}', in.size());
    if (!close) return false;
    in.bump(static_cast<std::size_t>(static_cast<const char*>(close) - in.current()));
    return true;
  }
};
template <>
inline constexpr const char* error_message<comment_text> = "unterminated comment: expected '}'";
struct comment : if_must<one<'{'>, comment_text, one<'}'>> {};

// ---- tag pairs -----------------------------------------------------------------
// Letters, digits and _ + # = : - . (see tag_name_length).
struct tag_name : scanned<tag_name> {
  template <typename... S>
  static std::size_t scan(const char* p, const char* end, S&...) {
    return tag_name_length(p, end);
  }
};
// The text between the quotes (possibly empty); see tag_value_length.
struct tag_value {
  using rule_t = tag_value;
  using subs_t = pegtl::empty_list;
  template <typename ParseInput>
  static bool match(ParseInput& in) {
    std::size_t n = tag_value_length(in.current(), in.end());
    if (n == std::string_view::npos) return false;
    in.bump(n);
    return true;
  }
};
struct tag_pair : seq<one<'['>, space, tag_name, space, one<'"'>, tag_value, one<'"'>, space, one<']'>> {};
// A line starting with '[' that is not a well-formed tag pair.
struct bad_tag : seq<one<'['>, rest_of_line> {};
struct tag : sor<tag_pair, bad_tag> {};

// ---- movetext tokens ----------------------------------------------------------
// A move token: move_token_length, found by argument-dependent lookup on the parser's
// state, reads it with the runtime piece words and the words Chinese sources write.
struct san_move : scanned<san_move> {
  template <typename... S>
  static std::size_t scan(const char* p, const char* end, S&... st) {
    return move_token_length(p, end, st...);
  }
};
// Suffix glyphs, longest first: !! ?? !? ?! ! ? (NAGs 3 4 5 6 1 2), full-width ones too.
struct glyph : scanned<glyph> {
  template <typename... S>
  static std::size_t scan(const char* p, const char* end, S&...) {
    int nag;
    return glyph_length(p, end, nag);
  }
};
struct move : seq<san_move, star<glyph>> {};
struct ellipsis : string<'\xE2', '\x80', '\xA6'> {};  // U+2026
struct dots : plus<sor<one<'.'>, ellipsis>> {};
// 12. or 12... or 12 ... ; or 12 alone before a blank (import format allows no period);
// digits and periods full-width too (１２．, 1、).
struct move_number : scanned<move_number> {
  template <typename... S>
  static std::size_t scan(const char* p, const char* end, S&...) {
    return move_number_length(p, end);
  }
};
// Periods standing alone: after a move number (12. ... Nf6), or "..." before Black's
// move (1. e4 ... e5), they are read as part of the numbering; elsewhere a stray '.'.
struct periods : dots {};
struct nag : seq<one<'$'>, plus<digit>> {};
struct result_token : scanned<result_token> {
  template <typename... S>
  static std::size_t scan(const char* p, const char* end, S&...) {
    const ResultWord* r = result_at(p, end);
    return r ? r->text.size() : 0;
  }
};
struct ep_token : seq<string<'e', '.', 'p', '.'>> {};  // a detached "e.p.", dropped
struct unknown_token : scanned<unknown_token> {
  template <typename... S>
  static std::size_t scan(const char* p, const char* end, S&...) {
    return unknown_length(p, end);
  }
};

// ---- variations ----------------------------------------------------------------
struct var_open : one<'('> {};
struct var_close : one<')'> {};
template <>
inline constexpr const char* error_message<var_close> = "expected ')' to close the variation";
struct var_result : result_token {};  // a result inside a variation: reported, ignored
struct var_unknown : scanned<var_unknown> {
  template <typename... S>
  static std::size_t scan(const char* p, const char* end, S&...) {
    return p < end && *p == ')' ? 0 : unknown_length(p, end);
  }
};
struct variation;
struct var_item : sor<blank, separator, move_number, move, comment, variation, nag, glyph, var_result, line_comment,
                      escape_line, ep_token, periods, var_unknown> {};
struct variation : if_must<var_open, star<var_item>, var_close> {};

// ---- a game ---------------------------------------------------------------------
struct stray_close : one<')'> {};
struct item : sor<blank, separator, move_number, move, comment, variation, nag, glyph, result_token, line_comment,
                  escape_line, ep_token, stray_close, periods, unknown_token> {};
struct header : star<sor<blank, comment, line_comment, escape_line, tag>> {};
struct game : seq<header, star<item>, eof> {};

}  // namespace qipu::grammar::pgn

// Analysis traits of the custom rules (all consume input when they match,
// except the zero-width line-start test and a possibly empty comment).
namespace tao::pegtl {
template <typename Name>
struct analyze_traits<Name, qipu::grammar::pgn::at_line_start> : analyze_opt_traits<> {};
template <typename Name>
struct analyze_traits<Name, qipu::grammar::pgn::comment_text> : analyze_opt_traits<> {};
template <typename Name>
struct analyze_traits<Name, qipu::grammar::pgn::tag_value> : analyze_opt_traits<> {};
template <typename Name>
struct analyze_traits<Name, qipu::grammar::pgn::tag_name> : analyze_any_traits<> {};
template <typename Name>
struct analyze_traits<Name, qipu::grammar::pgn::san_move> : analyze_any_traits<> {};
template <typename Name>
struct analyze_traits<Name, qipu::grammar::pgn::glyph> : analyze_any_traits<> {};
template <typename Name>
struct analyze_traits<Name, qipu::grammar::pgn::separator> : analyze_any_traits<> {};
template <typename Name>
struct analyze_traits<Name, qipu::grammar::pgn::move_number> : analyze_any_traits<> {};
template <typename Name>
struct analyze_traits<Name, qipu::grammar::pgn::unknown_token> : analyze_any_traits<> {};
template <typename Name>
struct analyze_traits<Name, qipu::grammar::pgn::var_unknown> : analyze_any_traits<> {};
template <typename Name>
struct analyze_traits<Name, qipu::grammar::pgn::result_token> : analyze_any_traits<> {};
}  // namespace tao::pegtl
