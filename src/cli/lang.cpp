#include "cli/lang.hpp"

#include <cstdlib>

#include "qipu/db/eco.hpp"

namespace qipu::cli {

namespace {

// Every word and phrase of the tables and summaries, English first; {} is a hole that
// say() fills. Traditional is the simplified text through OpenCC's s2t (tests/test_lang.cpp
// checks it). Adding a word is adding a line here.
constexpr Words WordTable[] = {
    // Results, as result_word() gives them.
    {"1-0", "白胜", "白勝"},
    {"0-1", "黑胜", "黑勝"},
    {"1/2-1/2", "和棋", "和棋"},
    {"*", "未完", "未完"},
    {"(none)", "（无）", "（無）"},
    // check and import summaries.
    {"{} games, {} valid, {} invalid, {} warnings", "{} 盘对局，{} 盘有效，{} 盘无效，{} 个警告",
     "{} 盤對局，{} 盤有效，{} 盤無效，{} 個警告"},
    {"imported {} games into {}; {} duplicates skipped; {} rejected",
     "已导入 {} 盘对局到 {}；跳过 {} 盘重复对局；{} 盘被拒", "已導入 {} 盤對局到 {}；跳過 {} 盤重複對局；{} 盤被拒"},
    {"  rejected for {}: {}", "  被拒原因 {}：{}", "  被拒原因 {}：{}"},
    {"{} games in {} s ({} games/s, {} MB/s)", "{} 盘对局，用时 {} 秒（每秒 {} 盘，{} MB/s）",
     "{} 盤對局，用時 {} 秒（每秒 {} 盤，{} MB/s）"},
    // explore.
    {"Position: ", "局面：", "局面："},
    {"Opening:  ", "开局：", "開局："},
    {"{} game: White wins {}%, draws {}%, Black wins {}%", "{} 盘对局：白胜 {}%，和棋 {}%，黑胜 {}%",
     "{} 盤對局：白勝 {}%，和棋 {}%，黑勝 {}%"},
    {"{} games: White wins {}%, draws {}%, Black wins {}%", "{} 盘对局：白胜 {}%，和棋 {}%，黑胜 {}%",
     "{} 盤對局：白勝 {}%，和棋 {}%，黑勝 {}%"},
    {"Top games (average Elo):", "最佳对局（平均等级分）：", "最佳對局（平均等級分）："},
    {"move", "着法", "着法"},
    {"share", "占比", "佔比"},
    {"white", "白胜", "白勝"},
    {"draw", "和棋", "和棋"},
    {"black", "黑胜", "黑勝"},
    {"elo", "等级分", "等級分"},
    {"last", "最近", "最近"},
    {"players", "对局双方", "對局雙方"},
    // search.
    {"id", "编号", "編號"},
    {"White", "白方", "白方"},
    {"Black", "黑方", "黑方"},
    {"result", "结果", "結果"},
    {"date", "日期", "日期"},
    {"event", "赛事", "賽事"},
    {"plies", "步数", "步數"},
    {"opening", "开局", "開局"},
    // stats.
    {"games", "局数", "局數"},
    {"games:", "对局：", "對局："},
    {"players:", "棋手：", "棋手："},
    {"events:", "赛事：", "賽事："},
    {"dates:", "日期：", "日期："},
    {"results:", "结果：", "結果："},
    {"final positions:", "终局：", "終局："},
    {"top players by games:", "对局最多的棋手：", "對局最多的棋手："},
    {"openings:", "开局：", "開局："},
    {"{} games", "{} 盘", "{} 盤"},
    {"{}: {} games, {} players", "{}：{} 盘对局，{} 名棋手", "{}：{} 盤對局，{} 名棋手"},
    {"rank", "名次", "名次"},
    {"player", "棋手", "棋手"},
    {"points", "积分", "積分"},
    {"SB", "索伯分", "索伯分"},
    {"(crosstable left out: more than {} players; see --max-crosstable)",
     "（棋手多于 {} 名，未列交叉表；见 --max-crosstable）", "（棋手多於 {} 名，未列交叉表；見 --max-crosstable）"},
    // players, rating, stats --player and --teams.
    {"match points", "场分", "場分"},
    {"game points", "局分", "局分"},
    {"team", "队", "隊"},
    {"matches", "场数", "場數"},
    {"level", "级别", "級別"},
    {"score", "得分", "得分"},
    {"perf", "表现分", "表現分"},
    {"performance", "表现分", "表現分"},
    {"rating", "等级分", "等級分"},
    {"unrated", "无级别", "無級別"},
    {"round", "轮次", "輪次"},
    {"won", "胜", "勝"},
    {"drawn", "和", "和"},
    {"lost", "负", "負"},
    {"start", "初始", "初始"},
    {"change", "变化", "變化"},
    {"spellings", "写法", "寫法"},
    {"FIDE id", "FIDE编号", "FIDE編號"},
    {"Elo", "等级分", "等級分"},
    {"years", "年份", "年份"},
    {"standings", "排名", "排名"},
    {"crosstable", "交叉表", "交叉表"},
    // stats --player and --teams tables.
    {"all", "全部", "全部"},
    {"opponents' Elo", "对手平均等级分", "對手平均等級分"},
    {"{} (FIDE id {})", "{}（FIDE编号 {}）", "{}（FIDE編號 {}）"},
    {"spellings: {}", "写法：{}", "寫法：{}"},
    {"({} game(s) without a result left out)", "（{} 盘对局无结果，未计入）", "（{} 盤對局無結果，未計入）"},
    {"by colour:", "按执子颜色：", "按執子顏色："},
    {"by year:", "按年份：", "按年份："},
    {"by ECO family:", "按ECO开局分类：", "按ECO開局分類："},
    {"match", "对阵", "對陣"},
    {"{}: {} matches, {} teams", "{}：{} 场比赛，{} 支队伍", "{}：{} 場比賽，{} 支隊伍"},
    {" ({} game(s) without both team tags or a result left out)", "（{} 盘对局缺少双方队名或结果，未计入）",
     "（{} 盤對局缺少雙方隊名或結果，未計入）"},
    {"standings (match points, then game points):", "排名（先比场分，再比局分）：", "排名（先比場分，再比局分）："},
    {"standings (game points, then match points):", "排名（先比局分，再比场分）：", "排名（先比局分，再比場分）："},
    {"(crosstable left out: more than {} teams; see --max-crosstable)",
     "（队伍多于 {} 支，未列交叉表；见 --max-crosstable）", "（隊伍多於 {} 支，未列交叉表；見 --max-crosstable）"},
    // How games ended (termination_name()).
    {"none", "未终局", "未終局"},
    {"checkmate", "将杀", "將殺"},
    {"stalemate", "逼和", "逼和"},
    {"insufficient_material", "子力不足", "子力不足"},
    {"fivefold_repetition", "五次重复", "五次重複"},
    {"seventy_five_move_rule", "七十五回合规则", "七十五回合規則"},
    {"threefold_repetition", "三次重复", "三次重複"},
    {"fifty_move_rule", "五十回合规则", "五十回合規則"},
};

// "zh_TW.UTF-8" and the like: the language part and the region or script after it.
std::optional<Lang> lang_of_locale(std::string_view locale) {
  if (locale.substr(0, 2) != "zh") return locale.empty() ? std::nullopt : std::optional(Lang::En);
  std::string_view rest = locale.substr(2, 5);
  for (std::string_view hant : {"_TW", "_HK", "_MO", "-TW", "-HK", "-MO", "_Hant", "-Hant"})
    if (rest.substr(0, hant.size()) == hant) return Lang::ZhHant;
  return Lang::Zh;
}

}  // namespace

std::span<const Words> all_words() { return WordTable; }

std::optional<Lang> lang_from_code(std::string_view code) {
  if (code == "en") return Lang::En;
  if (code == "zh") return Lang::Zh;
  if (code == "zh-Hant") return Lang::ZhHant;
  return std::nullopt;
}

Lang lang_from_environment(const char* qipu_lang, const char* lc_all, const char* lc_messages, const char* lang) {
  if (qipu_lang && *qipu_lang)
    if (auto l = lang_from_code(qipu_lang)) return *l;
  for (const char* v : {lc_all, lc_messages, lang})
    if (v && *v) return lang_of_locale(v).value_or(Lang::En);
  return Lang::En;
}

Lang resolve_lang(const std::string& option) {
  if (auto l = lang_from_code(option)) return *l;
  return lang_from_environment(std::getenv("QIPU_LANG"), std::getenv("LC_ALL"), std::getenv("LC_MESSAGES"),
                               std::getenv("LANG"));
}

std::string_view notation_code(Lang lang) { return lang == Lang::Zh ? "zh" : lang == Lang::ZhHant ? "zh-Hant" : "en"; }

std::string_view word(Lang lang, std::string_view english) {
  if (lang == Lang::En) return english;
  for (const auto& w : WordTable)
    if (w.en == english) return lang == Lang::Zh ? w.zh : w.zh_hant;
  return english;
}

std::string say(Lang lang, std::string_view english, std::initializer_list<std::string> values) {
  std::string_view text = word(lang, english);
  std::string out;
  auto value = values.begin();
  for (std::size_t at = 0;;) {
    std::size_t hole = text.find("{}", at);
    if (hole == std::string_view::npos || value == values.end()) {
      out += text.substr(at);
      return out;
    }
    out += text.substr(at, hole - at);
    out += *value++;
    at = hole + 2;
  }
}

std::string_view result_word(Lang lang, std::string_view result) {
  if (lang == Lang::En) return result;
  for (std::string_view r : {"1-0", "0-1", "1/2-1/2", "*"})
    if (r == result) return word(lang, r);
  return result;
}

OpeningNames opening_names(Lang lang, std::string_view name, std::string_view variation) {
  if (lang != Lang::En && !name.empty()) {
    auto script = lang == Lang::Zh ? db::Script::Simplified : db::Script::Traditional;
    if (auto zh = db::chinese_opening(name, variation, script))
      return {std::string(zh->name), std::string(zh->variation)};
  }
  return {std::string(name), std::string(variation)};
}

std::string opening_text(Lang lang, std::string_view name, std::string_view variation) {
  auto names = opening_names(lang, name, variation);
  if (names.variation.empty()) return names.name;
  return names.name + (lang == Lang::En ? ", " : " ") + names.variation;
}

}  // namespace qipu::cli
