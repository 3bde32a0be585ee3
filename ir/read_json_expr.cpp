// Reading plan JSON expressions with errors located by JSON pointer. Unknown
// keys are errors too: nothing a user writes is silently dropped.
#include "ir/date_days.h"
#include "ir/functions.h"
#include "ir/json_reader.h"

namespace rfguard {

using Json = nlohmann::json;
using Scope = JsonReader::Scope;

void JsonReader::error(const std::string& ptr, const std::string& msg) {
  if (failed) return;
  failed = true;
  diags_.errorAt(file_, ptr, msg);
}

bool JsonReader::allowed(const Json& j, const std::string& ptr,
                         const std::vector<const char*>& keys) {
  if (!j.is_object()) {
    error(ptr, "expected an object");
    return false;
  }
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool ok = false;
    for (const char* k : keys) ok = ok || it.key() == k;
    if (!ok) {
      error(ptr + "/" + escape(it.key()), "unknown field \"" + it.key() + "\"");
      return false;
    }
  }
  return true;
}

std::string JsonReader::escape(const std::string& key) {
  std::string out;
  for (char c : key) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return out;
}

const JsonReader::Json* JsonReader::field(const Json& j, const std::string& ptr, const char* key,
                                          Json::value_t type, bool required) {
  auto it = j.find(key);
  if (it == j.end()) {
    if (required) error(ptr, std::string("missing field \"") + key + "\"");
    return nullptr;
  }
  bool ok =
      it->type() == type || (type == Json::value_t::number_integer && it->is_number_unsigned());
  if (!ok) {
    error(ptr + "/" + key,
          std::string("\"") + key + "\" has the wrong type (" + it->type_name() + ")");
    return nullptr;
  }
  return &*it;
}

std::string JsonReader::str(const Json& j, const std::string& ptr, const char* key, bool required) {
  const Json* v = field(j, ptr, key, Json::value_t::string, required);
  return v ? v->get<std::string>() : "";
}

std::optional<Type> JsonReader::type(const Json& j, const std::string& ptr) {
  std::string t = str(j, ptr, "type");
  auto parsed = parseType(t);
  if (!parsed && !failed) error(ptr + "/type", "unknown type \"" + t + "\"");
  return parsed;
}

using Scope = std::map<std::string, Column>;

ExprPtr JsonReader::expr(const Json& j, const std::string& ptr, const Scope& scope) {
  if (failed) return makeNull();
  if (!j.is_object()) return error(ptr, "expected an expression object"), makeNull();
  if (j.contains("column")) {
    if (!allowed(j, ptr, {"column"})) return makeNull();
    std::string id = str(j, ptr, "column");
    auto it = scope.find(id);
    if (it == scope.end())
      return error(ptr + "/column", "column \"" + id + "\" is not produced below this node"),
             makeNull();
    return makeColumn(id, it->second.type, it->second.nullable);
  }
  if (j.contains("literal")) {
    if (!allowed(j, ptr, {"literal", "type"})) return makeNull();
    auto t = type(j, ptr);
    if (!t) return makeNull();
    const Json& v = j["literal"];
    if (v.is_null()) return makeNull(*t);
    if (t->kind == TypeKind::Boolean && v.is_boolean()) return makeBool(v.get<bool>());
    if (t->isInteger() && v.is_number_integer()) return makeLiteral(v.dump(), *t);
    if (v.is_string() && t->kind != TypeKind::Boolean && !t->isInteger())
      return makeLiteral(v.get<std::string>(), *t);
    return error(ptr + "/literal", "literal does not fit type " + t->toString()), makeNull();
  }
  if (j.contains("cast")) {
    if (!allowed(j, ptr, {"cast", "type"})) return makeNull();
    auto t = type(j, ptr);
    ExprPtr inner = expr(j["cast"], ptr + "/cast", scope);
    return t ? makeCast(inner, *t) : makeNull();
  }
  if (j.contains("call")) {
    if (!allowed(j, ptr, {"call", "args", "distinct"})) return makeNull();
    std::string name = str(j, ptr, "call");
    const FunctionInfo* fn = lookupFunction(name);
    if (!fn) return error(ptr + "/call", "unknown function \"" + name + "\""), makeNull();
    const Json* args = field(j, ptr, "args", Json::value_t::array);
    if (!args) return makeNull();
    std::vector<ExprPtr> as;
    for (size_t i = 0; i < args->size(); ++i)
      as.push_back(expr((*args)[i], ptr + "/args/" + std::to_string(i), scope));
    int n = static_cast<int>(as.size());
    // date + n counts days, as in SQL (ir/date_days.h).
    if (n == 2 && !failed)
      if (int d = dayOperand(fn->name, as[0]->type, as[1]->type); d >= 0) {
        ExprPtr days = daysInterval(*as[d]);
        if (!days)
          return error(ptr + "/args/" + std::to_string(d),
                       std::string("date ") + fn->name +
                           " integer needs an integer constant (a number of days)"),
                 makeNull();
        as[d] = days;
      }
    if (n < fn->minArgs || (fn->maxArgs >= 0 && n > fn->maxArgs))
      return error(ptr + "/args",
                   std::string(fn->name) + " cannot take " + std::to_string(n) + " arguments"),
             makeNull();
    const Json* d = field(j, ptr, "distinct", Json::value_t::boolean, false);
    return fn->kind == FunctionKind::Aggregate ? makeAggregate(fn->name, as, d && d->get<bool>())
                                               : makeCall(fn->name, as);
  }
  if (j.contains("subquery")) {
    if (!allowed(j, ptr, {"subquery", "arg", "plan"})) return makeNull();
    std::string kind = str(j, ptr, "subquery");
    SubqueryKind k = kind == "exists" ? SubqueryKind::Exists
                     : kind == "in"   ? SubqueryKind::In
                                      : SubqueryKind::Scalar;
    if (kind != "exists" && kind != "in" && kind != "scalar")
      return error(ptr + "/subquery",
                   "unknown subquery kind \"" + kind + "\" (exists, in, scalar)"),
             makeNull();
    ExprPtr arg;
    if (k == SubqueryKind::In) {
      if (!j.contains("arg")) return error(ptr, "missing field \"arg\""), makeNull();
      arg = expr(j["arg"], ptr + "/arg", scope);
    } else if (j.contains("arg")) {
      return error(ptr + "/arg", "only an \"in\" subquery takes \"arg\""), makeNull();
    }
    if (!j.contains("plan")) return error(ptr, "missing field \"plan\""), makeNull();
    PlanPtr plan = node(j["plan"], ptr + "/plan", scope);
    if (failed) return makeNull();
    Type t = k == SubqueryKind::Scalar && !plan->output.empty() ? plan->output[0].type
                                                                : Type::of(TypeKind::Boolean);
    return makeSubquery(k, plan, arg, t);
  }
  return error(ptr, "expected one of \"column\", \"literal\", \"call\", \"cast\", \"subquery\""),
         makeNull();
}

std::vector<ExprPtr> JsonReader::exprList(const Json& j, const std::string& ptr, const char* key,
                                          const Scope& scope) {
  std::vector<ExprPtr> out;
  const Json* a = field(j, ptr, key, Json::value_t::array);
  if (!a) return out;
  for (size_t i = 0; i < a->size(); ++i)
    out.push_back(expr((*a)[i], ptr + "/" + key + "/" + std::to_string(i), scope));
  return out;
}

std::vector<NamedExpr> JsonReader::namedList(const Json& j, const std::string& ptr, const char* key,
                                             const Scope& scope) {
  std::vector<NamedExpr> out;
  const Json* a = field(j, ptr, key, Json::value_t::array);
  if (!a) return out;
  for (size_t i = 0; i < a->size() && !failed; ++i) {
    std::string p = ptr + "/" + key + "/" + std::to_string(i);
    if (!allowed((*a)[i], p, {"name", "expr"})) break;
    std::string name = str((*a)[i], p, "name");
    if (!(*a)[i].contains("expr")) {
      error(p, "missing field \"expr\"");
      break;
    }
    out.push_back({name, expr((*a)[i]["expr"], p + "/expr", scope)});
  }
  return out;
}

std::vector<SortKey> JsonReader::sortKeys(const Json& j, const std::string& ptr, const char* key,
                                          const Scope& scope) {
  std::vector<SortKey> out;
  const Json* a = field(j, ptr, key, Json::value_t::array);
  if (!a) return out;
  for (size_t i = 0; i < a->size() && !failed; ++i) {
    std::string p = ptr + "/" + key + "/" + std::to_string(i);
    if (!allowed((*a)[i], p, {"expr", "ascending", "nulls_first"})) break;
    SortKey k;
    if (!(*a)[i].contains("expr")) {
      error(p, "missing field \"expr\"");
      break;
    }
    k.expr = expr((*a)[i]["expr"], p + "/expr", scope);
    const Json* asc = field((*a)[i], p, "ascending", Json::value_t::boolean);
    const Json* nf = field((*a)[i], p, "nulls_first", Json::value_t::boolean);
    k.ascending = asc && asc->get<bool>();
    k.nullsFirst = nf && nf->get<bool>();
    out.push_back(k);
  }
  return out;
}

WindowFrame JsonReader::frame(const Json& j, const std::string& ptr,
                              const std::vector<SortKey>& orderBy) {
  WindowFrame out;
  if (!allowed(j, ptr, {"unit", "start", "end"})) return out;
  const std::string unit = str(j, ptr, "unit");
  if (failed) return out;
  if (unit != "rows" && unit != "range") {
    error(ptr + "/unit", "unit must be \"rows\" or \"range\"");
    return out;
  }
  out.rows = unit == "rows";
  for (auto [key, into] : {std::pair{"start", &out.start}, std::pair{"end", &out.end}}) {
    const std::string p = ptr + "/" + key;
    const Json* b = field(j, ptr, key, Json::value_t::object);
    if (!b || !allowed(*b, p, {"bound", "offset"})) return out;
    const std::string name = str(*b, p, "bound");
    if (failed) return out;
    auto kind = parseFrameBound(name);
    if (!kind) {
      error(p + "/bound", "\"" + name +
                              "\" is not a frame bound (unbounded_preceding, preceding, "
                              "current_row, following, unbounded_following)");
      return out;
    }
    into->kind = *kind;
    const bool offset =
        *kind == FrameBound::Kind::Preceding || *kind == FrameBound::Kind::Following;
    if (offset != b->contains("offset")) {
      error(p, offset ? "missing field \"offset\"" : "only preceding and following take an offset");
      return out;
    }
    if (offset) {
      const Json* o = field(*b, p, "offset", Json::value_t::number_integer);
      if (!o) return out;
      if (!o->is_number_unsigned() && o->get<long long>() < 0) {
        error(p + "/offset", "offset must not be negative");
        return out;
      }
      if (o->get<unsigned long long>() > static_cast<unsigned long long>(kMaxFrameOffset)) {
        error(p + "/offset",
              "offset is out of range (at most " + std::to_string(kMaxFrameOffset) + ")");
        return out;
      }
      into->offset = o->get<long long>();
    }
  }
  if (auto problem = frameProblem(out, orderBy)) error(ptr, *problem);
  return out;
}

}  // namespace rfguard
