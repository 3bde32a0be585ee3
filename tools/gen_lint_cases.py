#!/usr/bin/env python3
"""Writes corpus/lint/findings.test: for every verifier finding code, a plan
JSON that triggers it and a near miss that must lint clean (or report only the
findings its expectation lists). Expectations are filled by the corpus runner's
--rewrite and read line by line before committing.

    tools/gen_lint_cases.py > corpus/lint/findings.test
    build/rfguard_corpus --rewrite corpus/lint/findings.test
"""
import json

TABLES = [
    ("a", [("k", "int"), ("v", "int"), ("s", "varchar"), ("d", "double")], {}),
    ("b", [("k", "int"), ("v", "int"), ("s", "varchar"), ("d", "double")], {}),
    ("c", [("k", "int"), ("v", "int"), ("s", "varchar"), ("d", "double")], {}),
    ("t", [("k", "int"), ("v", "int")], {"runtime_filter": False}),
]
_next = [0]


def col(c):
    return {"column": c}


def lit(v, t="int"):
    return {"literal": v, "type": t}


def call(name, *args):
    return {"call": name, "args": list(args)}


def eq(l, r, op="="):
    return call(op, col(l) if isinstance(l, str) else l, col(r) if isinstance(r, str) else r)


def node(op, children=(), **fields):
    _next[0] += 1
    n = {"id": _next[0], "op": op}
    n.update(fields)
    n["children"] = list(children)
    return n


def scan(alias, table=None, targets=None):
    t = table or alias
    cols = [c for c, _ in next(x for x in TABLES if x[0] == t)[1]]
    n = node("scan", table=t, alias=alias, columns=cols)
    if targets:
        n["runtime_filter_targets"] = [
            {"id": i, "target": col(e) if isinstance(e, str) else e} for i, e in targets]
    return n


def rf(i, probe, build, op="=", kinds=("bloom",), null_allowed=None):
    f = {"id": i, "build": col(build) if isinstance(build, str) else build,
         "probe": col(probe) if isinstance(probe, str) else probe, "op": op,
         "kinds": list(kinds)}
    if null_allowed is not None:
        f["null_allowed"] = null_allowed
    return f


def join(jt, left, right, cond, filters=()):
    fields = {"join_type": jt}
    if cond is not None:
        fields["condition"] = cond
    if filters:
        fields["runtime_filters"] = list(filters)
    # children are built before the join, so number the join after them
    n = node("join", [left, right], **fields)
    return n


def render(d):
    """JSON with one table and one plan node per line."""
    out = ['{"format": "rfguard-plan", "version": 1, "catalog": {"tables": [']
    ts = d["catalog"]["tables"]
    for i, t in enumerate(ts):
        out.append("  " + json.dumps(t) + ("," if i + 1 < len(ts) else ""))
    out.append(']}, "queries": [{"name": "q", "plan":')

    def emit(n, depth, last):
        head = {k: v for k, v in n.items() if k != "children"}
        s = json.dumps(head)[:-1]
        pad = "  " * depth
        if not n["children"]:
            out.append(pad + s + ', "children": []}' + ("" if last else ","))
            return
        out.append(pad + s + ', "children": [')
        for i, c in enumerate(n["children"]):
            emit(c, depth + 1, i + 1 == len(n["children"]))
        out.append(pad + "]}" + ("" if last else ","))

    emit(d["queries"][0]["plan"], 1, True)
    out.append("}]}")
    return "\n".join(out)


CASES = []


def case(title, build):
    """`build` is called twice so that node ids restart for each document."""
    CASES.append((title, build))


# Every builder returns a plan; ids are assigned in construction order, which
# the runner prints as node numbers. Near misses follow their trigger.

def ab(filters, a_t=None, b_t=None, jt="inner", cond=None):
    a = scan("a", targets=a_t)
    b = scan("b", targets=b_t)
    return join(jt, a, b, cond or eq("a.k", "b.k"), filters)


case("duplicate-filter-id: two producers of RF1",
     lambda: join("inner", ab([rf(1, "a.k", "b.k")], a_t=[(1, "a.k")]),
                  scan("c"), eq("a.v", "c.v"), [rf(1, "a.v", "c.v")]))
case("near miss: RF1 and RF2",
     lambda: join("inner", ab([rf(1, "a.k", "b.k")], a_t=[(1, "a.k"), (2, "a.v")]),
                  scan("c"), eq("a.v", "c.v"), [rf(2, "a.v", "c.v")]))
case("unknown-filter: a consumer of RF9", lambda: ab([rf(1, "a.k", "b.k")], a_t=[(1, "a.k"), (9, "a.k")]))
case("near miss: every consumer has its producer", lambda: ab([rf(1, "a.k", "b.k")], a_t=[(1, "a.k")]))
case("producer-without-consumer", lambda: ab([rf(1, "a.k", "b.k")]))
case("near miss: with a consumer", lambda: ab([rf(1, "a.k", "b.k")], a_t=[(1, "a.k")]))


def filter_over_a():
    f = node("filter", [scan("a")], predicate=call(">", col("a.v"), lit(0)))
    f["runtime_filter_targets"] = [{"id": 1, "target": col("a.k")}]
    return f


case("consumer-not-at-scan: a target on a filter node",
     lambda: join("inner", filter_over_a(), scan("b"), eq("a.k", "b.k"), [rf(1, "a.k", "b.k")]))


def filter_over_a_scan_target():
    a = scan("a", targets=[(1, "a.k")])
    f = node("filter", [a], predicate=call(">", col("a.v"), lit(0)))
    return join("inner", f, scan("b"), eq("a.k", "b.k"), [rf(1, "a.k", "b.k")])


case("near miss: the target at the scan below the filter", filter_over_a_scan_target)
case("target-not-computable: scan a targets b.k", lambda: ab([rf(1, "a.k", "b.k")], a_t=[(1, "b.k")]))
case("near miss: scan a targets a.k", lambda: ab([rf(1, "a.k", "b.k")], a_t=[(1, "a.k")]))


def t_join(target_table):
    x = scan("x", table=target_table, targets=[(1, "x.k")])
    return join("inner", x, scan("b"), eq("x.k", "b.k"), [rf(1, "x.k", "b.k")])


case("scan-rejects-filters: table t has runtime_filter = false", lambda: t_join("t"))
case("near miss: table a accepts filters", lambda: t_join("a"))
case("unsuitable-target: a function over a string at every row",
     lambda: ab([rf(1, call("length", col("a.s")), "b.k")], a_t=[(1, call("length", col("a.s")))],
                cond=eq(call("length", col("a.s")), "b.k")))
case("near miss: arithmetic over an integer",
     lambda: ab([rf(1, call("+", col("a.v"), lit(1)), "b.k")], a_t=[(1, call("+", col("a.v"), lit(1)))],
                cond=eq(call("+", col("a.v"), lit(1)), "b.k")))
case("kind-unsuitable: min_max on double",
     lambda: ab([rf(1, "a.d", "b.d", kinds=("bloom", "min_max"))], a_t=[(1, "a.d")], cond=eq("a.d", "b.d")))
case("near miss: bloom on double",
     lambda: ab([rf(1, "a.d", "b.d")], a_t=[(1, "a.d")], cond=eq("a.d", "b.d")))
case("null-flag-mismatch: a <=> filter that drops NULL",
     lambda: ab([rf(1, "a.k", "b.k", op="<=>", null_allowed=False)], a_t=[(1, "a.k")],
                cond=eq("a.k", "b.k", "<=>")))
case("near miss: a <=> filter that keeps NULL",
     lambda: ab([rf(1, "a.k", "b.k", op="<=>")], a_t=[(1, "a.k")], cond=eq("a.k", "b.k", "<=>")))
case("producer-under-or: a.k = b.k inside an OR",
     lambda: ab([rf(1, "a.k", "b.k")], a_t=[(1, "a.k")],
                cond=call("or", eq("a.k", "b.k"), eq("a.v", "b.v"))))
case("near miss: a.k = b.k inside an AND",
     lambda: ab([rf(1, "a.k", "b.k")], a_t=[(1, "a.k")],
                cond=call("and", eq("a.k", "b.k"), eq("a.v", "b.v"))))
case("producer-not-conjunct: a.v = b.v is not in the condition",
     lambda: ab([rf(1, "a.v", "b.v")], a_t=[(1, "a.v")]))
case("near miss: a.k = b.k is", lambda: ab([rf(1, "a.k", "b.k")], a_t=[(1, "a.k")]))
case("producer-join-type: a left join filtering its own probe side",
     lambda: ab([rf(1, "a.k", "b.k")], a_t=[(1, "a.k")], jt="left"))
case("producer-join-type: a left anti join filtering its probe side",
     lambda: ab([rf(1, "a.k", "b.k")], a_t=[(1, "a.k")], jt="left_anti"))
case("near miss: a right join filters its left side",
     lambda: ab([rf(1, "a.k", "b.k")], a_t=[(1, "a.k")], jt="right"))
case("producer-ineligible: <=> on double keys",
     lambda: ab([rf(1, "a.d", "b.d", op="<=>")], a_t=[(1, "a.d")], cond=eq("a.d", "b.d", "<=>")))
case("near miss: a range comparison over a build side of many rows builds a min/max bound (DuckDB's `<` join filter)",
     lambda: ab([rf(1, "a.v", "b.v", op="<", kinds=("min_max",))], a_t=[(1, "a.v")], cond=eq("a.v", "b.v", "<")))
case("producer-ineligible: a range comparison on double keys over many rows (NaN has no place in a min/max order)",
     lambda: ab([rf(1, "a.d", "b.d", op="<", kinds=("min_max",))], a_t=[(1, "a.d")], cond=eq("a.d", "b.d", "<")))
case("near miss: = on double keys",
     lambda: ab([rf(1, "a.d", "b.d")], a_t=[(1, "a.d")], cond=eq("a.d", "b.d")))


def local(distribution):
    f = rf(1, "a.k", "b.k", kinds=("in",))
    f["scope"] = "local"
    j = ab([f], a_t=[(1, "a.k")])
    j["distribution"] = distribution
    return j


case("local-filter-partial-build: a local filter on a shuffle join", lambda: local("shuffle"))
case("near miss: a local filter on a broadcast join", lambda: local("broadcast"))


def topn(op, key="a.v", targets=("a.v",)):
    a = scan("a", targets=[(1, t) for t in targets])
    s = node("sort", [a], keys=[{"expr": col(key), "ascending": True, "nulls_first": False}])
    return node("limit", [s], limit=10, runtime_filters=[rf(1, key, key, op=op, kinds=("min_max",))])


case("topn-producer-mismatch: ascending ORDER BY with a >= threshold", lambda: topn(">="))
case("near miss: ascending ORDER BY with a <= threshold", lambda: topn("<="))
case("consumer-in-build-side: RF1 consumed by b", lambda: ab([rf(1, "a.k", "b.k")], b_t=[(1, "b.k")]))
case("near miss: RF1 consumed by a", lambda: ab([rf(1, "a.k", "b.k")], a_t=[(1, "a.k")]))
case("consumer-outside-probe-side: RF1 of a join of a and b consumed by c",
     lambda: join("inner", ab([rf(1, "a.k", "b.k")], a_t=[(1, "a.k")]),
                  scan("c", targets=[(1, "c.k")]), eq("a.v", "c.v")))
case("near miss: RF1 consumed by a only",
     lambda: join("inner", ab([rf(1, "a.k", "b.k")], a_t=[(1, "a.k")]), scan("c"), eq("a.v", "c.v")))


def cycle(closed, non_blocking=False):
    a = scan("a", targets=[(1, "a.k")])
    b = scan("b", targets=[(2, "b.v")])
    j1 = join("inner", a, b, eq("a.k", "b.k"), [rf(1, "a.k", "b.k")])
    c = scan("c", targets=[(1, "c.k")] if closed else None)
    rf2 = rf(2, "b.v", "c.v")
    if non_blocking:
        rf2["non_blocking"] = True
    return join("inner", j1, c, call("and", eq("b.v", "c.v"), eq("a.k", "c.k")), [rf2])


case("filter-wait-cycle: RF1 consumed in RF2's build, RF2 in RF1's", lambda: cycle(True))
case("the same cycle broken: RF2 is non-blocking, b scans without waiting for it",
     lambda: cycle(True, True))
case("near miss: RF2 in RF1's build only (RF1 waits on RF2, not back)", lambda: cycle(False))


def left_then_c(target, op="=", parent=None):
    a = scan("a", targets=[(1, target)] if target.startswith("a.") else None)
    b = scan("b", targets=[(1, target if not target.startswith("coalesce") else
                            call("coalesce", col("b.k"), lit(0)))] if not target.startswith("a.") else None)
    j1 = join("left", a, b, eq("a.k", "b.k"))
    probe = parent or col("b.k")
    return join("inner", j1, scan("c"), call(op, probe, col("c.k")),
                [rf(1, probe, "c.k", op=op)])


case("unsafe-null-generating-side: coalesce(b.k, 0) = c.k consumed by b (docs/design.md section 4)",
     lambda: left_then_c("coalesce", parent=call("coalesce", col("b.k"), lit(0))))
case("near miss: b.k = c.k consumed by b", lambda: left_then_c("b.k"))
case("unsafe-null-generating-side: b.k <=> c.k consumed by b", lambda: left_then_c("b.k", op="<=>"))
case("unsafe-equality-copy: b.k <=> c.k copied to a", lambda: left_then_c("a.k", op="<=>"))
case("near miss: b.k = c.k copied to a", lambda: left_then_c("a.k"))


def anti_then_c(jt):
    a = scan("a")
    b = scan("b", targets=[(1, "b.k")])
    j1 = join(jt, a, b, eq("a.k", "b.k"))
    return join("inner", j1, scan("c"), eq("a.k", "c.k"), [rf(1, "a.k", "c.k")])


case("into-null-aware-anti-build: copied into the NOT IN subquery", lambda: anti_then_c("null_aware_left_anti"))
case("near miss: copied into a LEFT ANTI join's build side", lambda: anti_then_c("left_anti"))


def below(op_node):
    a = scan("a", targets=[(1, "a.k")])
    return join("inner", op_node(a), scan("b"), eq("a.k", "b.k"), [rf(1, "a.k", "b.k")])


case("crossed-limit: consumed below ORDER BY a.v LIMIT 1",
     lambda: below(lambda a: node("limit", [node("sort", [a], keys=[
         {"expr": col("a.v"), "ascending": True, "nulls_first": False}])], limit=1)))
case("crossed-unordered-limit: consumed below LIMIT 10 without ORDER BY",
     lambda: below(lambda a: node("limit", [a], limit=10)))
case("near miss: consumed below ORDER BY without a limit",
     lambda: below(lambda a: node("sort", [a], keys=[{"expr": col("a.v"), "ascending": True, "nulls_first": False}])))


def agg_case(by_key):
    a = scan("a", targets=[(1, "a.k" if by_key else "a.v")])
    g = node("aggregate", [a], keys=[{"name": "a.k", "expr": col("a.k")}],
             aggs=[{"name": "g.m", "func": "max", "args": [col("a.v")]}])
    probe = "a.k" if by_key else "g.m"
    return join("inner", g, scan("b"), eq(probe, "b.k"), [rf(1, probe, "b.k")])


case("crossed-aggregate: max(a.v) = b.k consumed as a.v", lambda: agg_case(False))
case("near miss: group key a.k = b.k consumed as a.k", lambda: agg_case(True))


def window_case(by_part):
    a = scan("a", targets=[(1, "a.k" if by_part else "a.v")])
    w = node("window", [a], windows=[{"name": "w.r", "func": "rank", "args": [],
                                      "partition_by": [col("a.k")],
                                      "order_by": [{"expr": col("a.v"), "ascending": True, "nulls_first": False}]}])
    probe = "a.k" if by_part else "a.v"
    return join("inner", w, scan("b"), eq(probe, "b.k"), [rf(1, probe, "b.k")])


case("crossed-window: a.v is not the partition key", lambda: window_case(False))
case("near miss: a.k is the partition key", lambda: window_case(True))


def except_case(text_key):
    # A text key made from a DOUBLE: EXCEPT holds -0.0 and 0.0 equal, their texts differ.
    key = (lambda c: {"cast": col(c), "type": "varchar"}) if text_key else col
    col_ = "d" if text_key else "k"
    a = scan("a")
    b = scan("b", targets=[(1, key("b." + col_))])
    e = node("except", [a, b], all=False, columns=["e." + col_])
    # except reads positionally; each child must output exactly one column
    a["columns"], b["columns"] = [col_], [col_]
    build = "c.s" if text_key else "c.k"
    return join("inner", e, scan("c"), call("=", key("e." + col_), col(build)),
                [rf(1, key("e." + col_), build)])


case("into-except-right: consumed by EXCEPT's right input as a text key of a DOUBLE", lambda: except_case(True))
case("near miss: consumed by EXCEPT's right input as a column", lambda: except_case(False))


def setop_case(op, build, probe, null_allowed=None, width=1):
    # A set operation's own filter (Doris's RuntimeFilterV2): one input's values
    # at a position filter another input at that position.
    cols = ["k", "v"][:width]
    a = scan("a", targets=[(1, probe)] if probe.startswith("a.") else None)
    b = scan("b", targets=[(1, probe)] if probe.startswith("b.") else None)
    a["columns"], b["columns"] = list(cols), list(cols)
    return node(op, [a, b], all=False, columns=["e." + c for c in cols],
                runtime_filters=[rf(1, probe, build, null_allowed=null_allowed)])


case("set-op-producer-ineligible: a UNION's filter of a.k into b.k",
     lambda: setop_case("union", "a.k", "b.k", True))
case("near miss: an INTERSECT's", lambda: setop_case("intersect", "a.k", "b.k", True))
case("set-op-producer-ineligible: an EXCEPT's filter of b.k into its first input",
     lambda: setop_case("except", "b.k", "a.k", True))
case("set-op-producer-ineligible: a.k into b.v, another position",
     lambda: setop_case("except", "a.k", "b.v", True, width=2))
case("null-flag-mismatch: an EXCEPT's filter of a.k into b.k that drops NULL keys",
     lambda: setop_case("except", "a.k", "b.k"))
case("near miss: null-allowing", lambda: setop_case("except", "a.k", "b.k", True))


def subquery_case(on_key):
    b = scan("b", targets=[(1, "b.k")])
    corr = node("filter", [b], predicate=eq("b.k" if on_key else "b.v", "a.k" if on_key else "a.v"))
    a = scan("a")
    f = node("filter", [a], predicate={"subquery": "exists", "plan": corr})
    return join("inner", f, scan("c"), eq("a.k", "c.k"), [rf(1, "a.k", "c.k")])


case("into-subquery: consumed inside EXISTS correlated on a.v", lambda: subquery_case(False))
case("near miss: consumed inside EXISTS below its correlation b.k = a.k", lambda: subquery_case(True))


def project_case(random):
    a = scan("a", targets=[(1, "a.k")])
    expr = call("+", col("a.k"), call("random")) if random else col("a.k")
    p = node("project", [a], exprs=[{"name": "p.x", "expr": expr}])
    return join("inner", p, scan("b"), eq("p.x", "b.k"), [rf(1, "p.x", "b.k", kinds=("bloom",))])


case("crossed-nondeterministic-projection: p.x := a.k + random()", lambda: project_case(True))
case("near miss: p.x := a.k", lambda: project_case(False))
case("target-not-derivable: a.k = b.k consumed as a.v", lambda: ab([rf(1, "a.k", "b.k")], a_t=[(1, "a.v")]))
case("target-not-derivable: consumed as a.k + 1",
     lambda: ab([rf(1, "a.k", "b.k")], a_t=[(1, call("+", col("a.k"), lit(1)))]))
case("near miss: consumed as cast(a.k AS bigint), a cast that keeps every value",
     lambda: ab([rf(1, "a.k", "b.k")], a_t=[(1, {"cast": col("a.k"), "type": "bigint"})]))
case("target-not-derivable: a.d = b.d consumed as cast(a.d AS int), a cast that rounds",
     lambda: ab([rf(1, "a.d", "b.d")], a_t=[(1, {"cast": col("a.d"), "type": "int"})], cond=eq("a.d", "b.d")))
case("near miss: consumed as a.k", lambda: ab([rf(1, "a.k", "b.k")], a_t=[(1, "a.k")]))


def topn_project(changed):
    a = scan("a", targets=[(1, call("+", col("a.v"), lit(1)) if changed else col("a.v"))])
    expr = call("+", col("a.v"), lit(1)) if changed else col("a.v")
    p = node("project", [a], exprs=[{"name": "p.x", "expr": expr}])
    s = node("sort", [p], keys=[{"expr": col("p.x"), "ascending": True, "nulls_first": False}])
    return node("limit", [s], limit=10, runtime_filters=[rf(1, "p.x", "p.x", op="<=", kinds=("min_max",))])


case("near miss (topn-target-changed, retired): ORDER BY p.x where p.x := a.v + 1, consumed as a.v + 1",
     lambda: topn_project(True))
case("near miss: p.x := a.v", lambda: topn_project(False))


def main():
    print("# Generated by tools/gen_lint_cases.py: one trigger and one near miss per")
    print("# finding code (docs/findings.md). Each input is a plan JSON document.")
    for title, build in CASES:
        _next[0] = 0
        plan = build()
        print()
        print("# " + title)
        print("lint")
        print(doc_with(plan))
        print("----")
        print("?")
        print()


def doc_with(plan):
    tables = []
    for name, cols, props in TABLES:
        t = {"name": name, "columns": [{"name": c, "type": ty, "nullable": True} for c, ty in cols]}
        t.update(props)
        tables.append(t)
    return render({"catalog": {"tables": tables}, "queries": [{"name": "q", "plan": plan}]})


if __name__ == "__main__":
    main()
