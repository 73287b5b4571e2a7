// Column headings of the player, rating and team tables, in English or, when QIPU_LANG
// is zh or zh-Hant, in Chinese (场分 / 局分 …). One function, so that the words can join
// the program's word table (--lang) in one place.
#pragma once

#include <cstdlib>
#include <string>
#include <string_view>

namespace qipu::cli {

// The heading for an English word, in the language QIPU_LANG names.
inline std::string heading(std::string_view english) {
  struct Word {
    std::string_view en, zh, zh_hant;
  };
  static constexpr Word words[] = {{"match points", "场分", "場分"},
                                   {"game points", "局分", "局分"},
                                   {"team", "队", "隊"},
                                   {"matches", "场数", "場數"},
                                   {"rank", "名次", "名次"},
                                   {"player", "棋手", "棋手"},
                                   {"points", "积分", "積分"},
                                   {"level", "级别", "級別"},
                                   {"games", "对局", "對局"},
                                   {"score", "得分", "得分"},
                                   {"rating", "等级分", "等級分"},
                                   {"unrated", "无级别", "無級別"},
                                   {"round", "轮次", "輪次"},
                                   {"performance", "表现分", "表現分"},
                                   {"won", "胜", "勝"},
                                   {"drawn", "和", "和"},
                                   {"lost", "负", "負"},
                                   {"start", "初始", "初始"},
                                   {"change", "变化", "變化"},
                                   {"K", "K", "K"},
                                   {"spellings", "写法", "寫法"},
                                   {"FIDE id", "FIDE编号", "FIDE編號"},
                                   {"Elo", "等级分", "等級分"},
                                   {"years", "年份", "年份"},
                                   {"standings", "排名", "排名"},
                                   {"crosstable", "交叉表", "交叉表"}};
  const char* lang = std::getenv("QIPU_LANG");
  std::string_view l = lang ? lang : "";
  for (const Word& w : words)
    if (w.en == english) {
      if (l == "zh" || l == "zh-Hans") return std::string(w.zh);
      if (l == "zh-Hant") return std::string(w.zh_hant);
    }
  return std::string(english);
}

}  // namespace qipu::cli
