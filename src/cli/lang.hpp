// The language of the words in tables and summaries (headings, results, "N games, V
// valid"): English, simplified or traditional Chinese. Messages (errors, warnings) stay
// English. Every word lives in one table in lang.cpp; adding one is adding a line there.
#pragma once

#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace qipu::cli {

enum class Lang { En, Zh, ZhHant };

// "en", "zh" or "zh-Hant" (as --lang takes them); nullopt for anything else.
std::optional<Lang> lang_from_code(std::string_view code);
// The language a user of these settings reads: QIPU_LANG when set; else the first set of
// LC_ALL, LC_MESSAGES, LANG (POSIX's order), zh_TW / zh_HK / zh_MO / zh_Hant → zh-Hant,
// other zh → zh; else English. Arguments may be null (unset).
Lang lang_from_environment(const char* qipu_lang, const char* lc_all, const char* lc_messages, const char* lang);
// --lang when given, else the environment's.
Lang resolve_lang(const std::string& option);
// The notation for moves in that language: "en", "zh" or "zh-Hant".
std::string_view notation_code(Lang lang);

// The word or phrase `english` in the language (English itself when the table has no
// translation). `english` is the key: word(Lang::Zh, "games") is "对局".
std::string_view word(Lang lang, std::string_view english);
// A phrase with {} holes filled in order: say(Lang::Zh, "{} games", {"3"}) is "3 盘对局".
std::string say(Lang lang, std::string_view english, std::initializer_list<std::string> values);
// The whole table, for tests: each word in English, simplified and traditional.
struct Words {
  std::string_view en, zh, zh_hant;
};
std::span<const Words> all_words();
// A game result as a reader of the language writes it: 1-0 is 白胜 in Chinese.
std::string_view result_word(Lang lang, std::string_view result);

// An opening's name and variation as a reader of the language writes them: the Chinese
// names (the family's when the opening has none of its own, no variation when it has
// none established), English as given when the table knows neither.
struct OpeningNames {
  std::string name, variation;
};
OpeningNames opening_names(Lang lang, std::string_view name, std::string_view variation);
// Both in one: "Sicilian, Najdorf" in English, "西西里防御 纳道夫变例" in Chinese.
std::string opening_text(Lang lang, std::string_view name, std::string_view variation);

}  // namespace qipu::cli
