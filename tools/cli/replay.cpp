// `rfguard replay`: reads a publication scenario (docs/replay.md), replays it
// with a strategy, prints the outcome. Exit 0, 1 when the query fails, 2 on
// input errors (each with its JSON pointer).
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "execution/replay.h"
#include "ir/cmp_op.h"
#include "ir/diagnostics.h"
#include "tools/cli/replay.h"

namespace rfguard {

namespace {

using Json = nlohmann::json;
using OJson = nlohmann::ordered_json;

/// What a scenario may ask for (docs/replay.md): every bitmap the replay builds
/// is allocated whole, so m and the messages are bounded before anything is built.
constexpr uint64_t kMaxBits = uint64_t{1} << 32;           // per bitmap
constexpr uint64_t kMaxBitmapBytes = uint64_t{256} << 20;  // all digests of one scenario
constexpr size_t kMaxMessages = 100000;
constexpr size_t kMaxShards = 4096;

uint64_t bitmapBytes(uint64_t m) {
  return (m + 63) / 64 * 8;
}

/// A strict reader: the first error, with its JSON pointer, stops it.
struct ScenarioReader {
  std::string error;
  uint64_t bytes = 0;  // bitmaps the replay will build: the published one, one per digest

  /// Counts `copies` bitmaps of `m` bits against the budget.
  bool budget(const std::string& ptr, uint64_t m, uint64_t copies = 1) {
    if (m > kMaxBits) return fail(ptr, "m is above 2^32 bits");
    bytes += copies * bitmapBytes(m);
    if (bytes > kMaxBitmapBytes)
      return fail(ptr, "the scenario's bitmaps would take more than 256 MiB (" +
                           std::to_string(bytes >> 20) + " MiB by here)");
    return true;
  }

  bool fail(const std::string& ptr, const std::string& msg) {
    if (error.empty()) error = oneLine("error at " + (ptr.empty() ? "/" : ptr) + ": " + msg);
    return false;
  }
  bool only(const Json& j, const std::string& ptr, std::initializer_list<const char*> keys) {
    if (!j.is_object()) return fail(ptr, "expected an object");
    for (const auto& [k, v] : j.items()) {
      bool known = false;
      for (const char* key : keys) known = known || k == key;
      if (!known) return fail(ptr + "/" + k, "unknown field \"" + k + "\"");
    }
    return true;
  }
  const Json* need(const Json& j, const std::string& ptr, const char* key) {
    if (!j.contains(key)) return fail(ptr, std::string("missing field \"") + key + "\""), nullptr;
    return &j[key];
  }
  bool integer(const Json& j, const std::string& ptr, int64_t& out, int64_t min) {
    if (!j.is_number_integer()) return fail(ptr, "expected an integer");
    out = j.get<int64_t>();
    if (out < min) return fail(ptr, "must be at least " + std::to_string(min));
    return true;
  }
  bool string(const Json& j, const std::string& ptr, std::string& out) {
    if (!j.is_string()) return fail(ptr, "expected a string");
    out = j.get<std::string>();
    return true;
  }
  bool keys(const Json& j, const std::string& ptr, std::vector<std::optional<int64_t>>& out) {
    if (!j.is_array()) return fail(ptr, "expected an array of integers or null");
    for (size_t i = 0; i < j.size(); ++i) {
      if (j[i].is_null()) {
        out.push_back(std::nullopt);
      } else if (j[i].is_number_integer()) {
        out.push_back(j[i].get<int64_t>());
      } else {
        return fail(ptr + "/" + std::to_string(i), "expected an integer or null");
      }
    }
    return true;
  }
  bool mapping(const Json& j, const std::string& ptr, rt::Mapping& out) {
    std::string name;
    if (!string(j, ptr, name)) return false;
    auto m = rt::parseMapping(name);
    if (!m) return fail(ptr, "mapping must be \"demo-linear\" or \"split-block\"");
    out = *m;
    return true;
  }

  bool readHash(const Json& doc, rt::Scenario& s) {
    const Json* h = need(doc, "", "hash");
    if (!h || !only(*h, "/hash", {"m", "k", "mapping", "seed"})) return false;
    int64_t v = 0;
    const Json* m = need(*h, "/hash", "m");
    if (!m || !integer(*m, "/hash/m", v, 1)) return false;
    s.hash.m = static_cast<uint64_t>(v);
    if (!budget("/hash/m", s.hash.m, 2)) return false;  // the merged and the published filter
    if (h->contains("k")) {
      if (!integer((*h)["k"], "/hash/k", v, 1)) return false;
      s.hash.k = static_cast<int>(v);
    }
    if (h->contains("mapping") && !mapping((*h)["mapping"], "/hash/mapping", s.hash.mapping))
      return false;
    if (s.hash.mapping == rt::Mapping::SplitBlock && !h->contains("k")) s.hash.k = 8;
    if (h->contains("seed")) {
      if (!integer((*h)["seed"], "/hash/seed", v, 0)) return false;
      s.hash.seed = static_cast<uint64_t>(v);
    }
    if (std::string why = rt::checkConfig(s.hash); !why.empty()) return fail("/hash", why);
    return true;
  }

  bool read(const Json& doc, rt::Scenario& s) {
    if (!only(doc, "",
              {"filter", "equality", "hash", "execution", "shards", "probe", "messages",
               "timeout_after"}))
      return false;
    if (doc.contains("filter")) {
      std::string kind;
      if (!string(doc["filter"], "/filter", kind)) return false;
      if (kind == "bloom")
        s.kind = rt::Kind::Bloom;
      else if (kind == "in")
        s.kind = rt::Kind::In;
      else if (kind == "min_max")
        s.kind = rt::Kind::MinMax;
      else
        return fail("/filter", "filter must be \"bloom\", \"in\" or \"min_max\"");
    }
    if (doc.contains("equality")) {
      std::string op;
      if (!string(doc["equality"], "/equality", op)) return false;
      const std::optional<CmpOp> eq = parseCmpOp(op);
      if (!eq || !isEquality(*eq)) return fail("/equality", "equality must be \"=\" or \"<=>\"");
      s.nullSafe = *eq == CmpOp::NullSafeEq;
    }
    const bool bloom = s.kind == rt::Kind::Bloom;
    if (!bloom && doc.contains("hash")) return fail("/hash", "hash applies to bloom filters only");
    if (bloom && !readHash(doc, s)) return false;
    int64_t v = 0;
    const Json* e = need(doc, "", "execution");
    if (!e || !only(*e, "/execution", {"query", "epoch", "snapshot", "join"})) return false;
    for (const char* k : {"query", "epoch", "snapshot", "join"})
      if (!need(*e, "/execution", k)) return false;
    if (!string((*e)["query"], "/execution/query", s.exec.query) ||
        !integer((*e)["epoch"], "/execution/epoch", s.exec.epoch, 0) ||
        !integer((*e)["snapshot"], "/execution/snapshot", s.exec.snapshot, 0) ||
        !string((*e)["join"], "/execution/join", s.exec.join))
      return false;
    const Json* shards = need(doc, "", "shards");
    if (!shards) return false;
    if (!shards->is_object()) return fail("/shards", "expected an object: shard name -> keys");
    if (shards->size() > kMaxShards)
      return fail("/shards", "more than " + std::to_string(kMaxShards) + " shards");
    for (const auto& [name, ks] : shards->items())
      if (!keys(ks, "/shards/" + name, s.shards[name])) return false;
    const Json* probe = need(doc, "", "probe");
    if (!probe || !keys(*probe, "/probe", s.probe)) return false;
    const Json* msgs = need(doc, "", "messages");
    if (!msgs) return false;
    if (!msgs->is_array()) return fail("/messages", "expected an array");
    if (msgs->size() > kMaxMessages)
      return fail("/messages", "more than " + std::to_string(kMaxMessages) + " messages");
    for (size_t i = 0; i < msgs->size(); ++i) {
      std::string p = "/messages/" + std::to_string(i);
      const Json& mj = (*msgs)[i];
      if (!only(mj, p,
                {"shard", "query", "epoch", "snapshot", "join", "m", "mapping", "bits", "keys"}))
        return false;
      for (const char* k : {"m", "mapping", "bits"})
        if (!bloom && mj.contains(k))
          return fail(p + "/" + k, std::string(k) + " applies to bloom filters only");
      if (mj.contains("bits") && mj.contains("keys"))
        return fail(p + "/keys", "give bits or keys, not both");
      rt::ScenarioMessage msg;
      const Json* shard = need(mj, p, "shard");
      if (!shard || !string(*shard, p + "/shard", msg.shard)) return false;
      std::string str;
      if (mj.contains("query")) {
        if (!string(mj["query"], p + "/query", str)) return false;
        msg.query = str;
      }
      if (mj.contains("join")) {
        if (!string(mj["join"], p + "/join", str)) return false;
        msg.join = str;
      }
      if (mj.contains("epoch")) {
        if (!integer(mj["epoch"], p + "/epoch", v, 0)) return false;
        msg.epoch = v;
      }
      if (mj.contains("snapshot")) {
        if (!integer(mj["snapshot"], p + "/snapshot", v, 0)) return false;
        msg.snapshot = v;
      }
      if (mj.contains("m")) {
        if (!integer(mj["m"], p + "/m", v, 1)) return false;
        msg.m = static_cast<uint64_t>(v);
      }
      if (mj.contains("mapping")) {
        rt::Mapping mp;
        if (!mapping(mj["mapping"], p + "/mapping", mp)) return false;
        msg.mapping = mp;
      }
      if (mj.contains("keys")) {
        msg.keys.emplace();
        if (!keys(mj["keys"], p + "/keys", *msg.keys)) return false;
      }
      s.messages.push_back(msg);
      if (!bloom) continue;
      rt::HashConfig c = s.hash;
      if (msg.m) c.m = *msg.m;
      if (msg.mapping) c.mapping = *msg.mapping;
      if (std::string why = rt::checkConfig(c); !why.empty()) return fail(p, why);
      if (!budget(mj.contains("m") ? p + "/m" : p, c.m)) return false;
      if (mj.contains("bits")) {
        const Json& b = mj["bits"];
        if (!b.is_array()) return fail(p + "/bits", "expected an array of bit positions");
        std::vector<uint64_t> bits;
        for (size_t k = 0; k < b.size(); ++k) {
          if (!integer(b[k], p + "/bits/" + std::to_string(k), v, 0)) return false;
          if (static_cast<uint64_t>(v) >= c.m)
            return fail(p + "/bits/" + std::to_string(k), "bit position beyond m");
          bits.push_back(static_cast<uint64_t>(v));
        }
        s.messages.back().bits = bits;
      }
    }
    if (doc.contains("timeout_after")) {
      if (!integer(doc["timeout_after"], "/timeout_after", v, 0)) return false;
      s.timeoutAfter = static_cast<size_t>(v);
    }
    return true;
  }
};

OJson keysJson(const std::vector<std::optional<int64_t>>& ks) {
  OJson a = OJson::array();
  for (const auto& k : ks) a.push_back(k ? OJson(*k) : OJson(nullptr));
  return a;
}

std::string keysText(const std::vector<std::optional<int64_t>>& ks) {
  std::string out;
  for (size_t i = 0; i < ks.size(); ++i)
    out += (i ? ", " : "") + (ks[i] ? std::to_string(*ks[i]) : std::string("NULL"));
  return "[" + out + "]";
}

}  // namespace

int runReplay(const ReplayArgs& args, std::ostream& out, std::ostream& err) {
  std::string text;
  if (args.file == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(args.file, std::ios::binary);
    if (!in) {
      err << args.file << ": error: cannot open file\n";
      return kExitInputError;
    }
    std::stringstream buf;
    buf << in.rdbuf();
    text = buf.str();
  }
  return replayDocument(text, args, out, err);
}

int replayDocument(const std::string& text, const ReplayArgs& args, std::ostream& out,
                   std::ostream& err) {
  Json doc = Json::parse(text, nullptr, false);
  if (doc.is_discarded()) {
    err << args.file << ": error at /: malformed JSON\n";
    return kExitInputError;
  }
  rt::Scenario s;
  ScenarioReader reader;
  if (!reader.read(doc, s)) {
    err << args.file << ": " << reader.error << "\n";
    return kExitInputError;
  }
  rt::ReplayResult r = rt::replay(s, *rt::parseStrategy(args.strategy));
  // What a wrong strategy loses, against the correct protocol on the same scenario.
  rt::ReplayResult right = rt::replay(s, rt::Strategy::Correct);
  if (args.format == "json") {
    OJson j;
    j["strategy"] = args.strategy;
    j["filter"] = rt::kindName(s.kind);
    j["equality"] = s.nullSafe ? "<=>" : "=";
    j["state"] = rt::pubStateName(r.state);
    if (r.bits)
      j["bits"] = *r.bits;
    else
      j["bits"] = nullptr;
    if (r.values) {
      OJson c;
      if (s.kind == rt::Kind::In) {
        OJson ks = OJson::array();
        for (const auto& k : r.values->keys) ks.push_back(std::get<int64_t>(k[0]));
        c["keys"] = ks;
      } else if (r.values->min.empty()) {
        c["min"] = c["max"] = nullptr;
      } else {
        c["min"] = std::get<int64_t>(r.values->min[0]);
        c["max"] = std::get<int64_t>(r.values->max[0]);
      }
      c["null"] = r.values->null;
      j["content"] = c;
    }
    if (s.nullSafe && r.state == rt::PubState::Ready) j["accepts_null"] = r.nullAccepted;
    j["retained"] = keysJson(r.retained);
    j["pairs"] = r.pairs;
    j["ignored"] = r.ignored;
    j["outcomes"] = r.outcomes;
    OJson ts = OJson::array();
    for (const auto& t : r.transitions)
      ts.push_back(
          OJson{{"after", t.after}, {"event", t.event}, {"state", rt::pubStateName(t.state)}});
    j["transitions"] = ts;
    j["retained_digest_bytes"] = r.retainedBytes;
    j["correct"] = OJson{{"state", rt::pubStateName(right.state)}, {"pairs", right.pairs}};
    out << j.dump(2) << "\n";
  } else {
    out << "strategy " << args.strategy << "\n";
    if (s.kind != rt::Kind::Bloom || s.nullSafe)
      out << "filter " << rt::kindName(s.kind) << ", equality " << (s.nullSafe ? "<=>" : "=")
          << "\n";
    for (size_t i = 0; i < r.outcomes.size(); ++i)
      out << "  message " << i + 1 << " (" << s.messages[i].shard << "): " << r.outcomes[i] << "\n";
    for (const auto& t : r.transitions)
      out << "  after " << t.after << " (" << t.event << "): " << rt::pubStateName(t.state) << "\n";
    out << "state " << rt::pubStateName(r.state) << "\n";
    if (r.bits) {
      std::string bits;
      for (size_t i = 0; i < r.bits->size(); ++i)
        bits += (i ? ", " : "") + std::to_string((*r.bits)[i]);
      out << "bits {" << bits << "}\n";
    }
    if (r.values)
      out << (s.kind == rt::Kind::In ? "keys " : "range ") << r.values->describe(s.kind) << "\n";
    if (s.nullSafe && r.state == rt::PubState::Ready)
      out << "NULL probe keys " << (r.nullAccepted ? "kept" : "dropped") << "\n";
    if (r.state != rt::PubState::Failed) {
      out << "retained " << keysText(r.retained) << "\n";
      out << "pairs " << r.pairs << "\n";
    }
    for (const auto& [why, n] : r.ignored) out << "ignored " << why << ": " << n << "\n";
    out << "digest bytes kept " << r.retainedBytes << "\n";
    if (args.strategy != "correct")
      out << "correct protocol: " << rt::pubStateName(right.state) << ", " << right.pairs
          << " pairs\n";
  }
  return r.state == rt::PubState::Failed ? kExitFindings : kExitOk;
}

}  // namespace rfguard
