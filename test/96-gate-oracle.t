#!/usr/bin/python3
# The gate's p and interval (front-end/compare/gate.h, mwu.h) against
# an independent oracle, at 3, 5, 7, 20, 50, 80, 100 and 500 runs a side,
# with and without ties, at 95% and 80%:
#   p: Debian's scipy.stats.mannwhitneyu, two-sided, method "exact" where
#      mwu.h's rule says exact (C(m+n, m) < 2^127 and m n <= 2^20, decided
#      here with Python's integers), "asymptotic" with use_continuity
#      beyond; both on y = ln(value + floor);
#   interval: the Hodges-Lehmann median and ends computed here: every
#      difference formed and sorted, the rank k from the exact null
#      distribution counted here in Python integers (the recurrence
#      f(m, n, u) = f(m - 1, n, u - n) + f(m, n - 1, u), not the C
#      code's product), or k = floor(m n / 2 + 1/2 - z sigma) with the
#      tie-corrected sigma beyond.
# Values: lognormal noise, the candidate 3% lower; with ties, rounded to
# a few levels. The gate runs through build/test/gate-eval.
import math
import os
import random
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD", os.path.join(TOP, "build"))
EVAL = os.path.join(BUILD, "test", "gate-eval")
SIZES = (3, 5, 7, 20, 50, 80, 100, 500)
FLOOR = 0.01

try:
    from scipy.stats import mannwhitneyu, norm
except ImportError:
    print("TAP version 13\n1..0 # SKIP python3-scipy missing (make deps)")
    sys.exit(0)
if not os.access(EVAL, os.X_OK):
    print("TAP version 13\n1..0 # SKIP %s not built (make)" % EVAL)
    sys.exit(0)

n_test = 0
failed = 0


def ok(cond, desc):
    global n_test, failed
    n_test += 1
    print("%sok %d - %s" % ("" if cond else "not ", n_test, desc))
    if not cond:
        failed += 1


_counts = {}


def counts(m, n):
    """How many orderings give U = 0..m n, by the two-term recurrence."""
    if (m, n) in _counts:
        return _counts[(m, n)]
    prev = [[1] for _ in range(n + 1)]
    for i in range(1, m + 1):
        cur = [[1]]
        for j in range(1, n + 1):
            out = [0] * (i * j + 1)
            for u, v in enumerate(cur[j - 1]):
                out[u] += v
            for u, v in enumerate(prev[j]):
                out[u + j] += v
            cur.append(out)
        prev = cur
    _counts[(m, n)] = prev[n]
    return prev[n]


def exact_rule(m, n):
    return m * n <= (1 << 20) and math.comb(m + n, m) < (1 << 127)


def rank(m, n, y, alpha, exact):
    if exact:
        c = counts(m, n)
        total = sum(c)
        k, acc = 0, 0
        for u in range(len(c)):
            acc += c[u]
            if acc / total > alpha / 2 * (1 + 1e-12):
                break
            k = u + 1
        return k
    ties = {}
    for v in y:
        ties[v] = ties.get(v, 0) + 1
    t = sum(c ** 3 - c for c in ties.values())
    nn = m + n
    sigma = math.sqrt(m * n / 12 * ((nn + 1) - t / (nn * (nn - 1))))
    k = math.floor(m * n / 2 + 0.5 - norm.isf(alpha / 2) * sigma)
    return max(k, 0)


def pct(d):
    return (math.exp(d) - 1) * 100


def close(a, b, rel):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def gate(base, cand, conf):
    text = " ".join(repr(v) for v in base + cand)
    out = subprocess.run([EVAL, str(len(base)), str(len(cand)), str(FLOOR),
                          str(conf)], input=text, capture_output=True,
                         text=True, check=True).stdout
    return {k: v for k, v in (line.split(" ", 1)
                              for line in out.splitlines())}


def case(n, with_ties, rng):
    base = [1000 * math.exp(rng.gauss(0, 0.05)) for _ in range(n)]
    cand = [970 * math.exp(rng.gauss(0, 0.05)) for _ in range(n)]
    if with_ties:
        base = [float(round(v / 25) * 25) for v in base]
        cand = [float(round(v / 25) * 25) for v in cand]
    else:
        base = [round(v, 6) for v in base]
        cand = [round(v, 6) for v in cand]
    yb = [math.log(v + FLOOR) for v in base]
    yc = [math.log(v + FLOOR) for v in cand]
    exact = exact_rule(n, n)
    nties = len(yb + yc) - len(set(yb + yc))
    what = "%d a side, %s (%d tied), %s" % (
        n, "with ties" if with_ties else "no ties", nties,
        "exact" if exact else "normal")
    p = mannwhitneyu(yc, yb, alternative="two-sided", use_continuity=True,
                     method="exact" if exact else "asymptotic").pvalue
    d = sorted(c - b for b in yb for c in yc)
    nd = len(d)
    med = d[(nd - 1) // 2] if nd % 2 else (d[nd // 2 - 1] + d[nd // 2]) / 2
    for conf in (0.95, 0.8):
        g = gate(base, cand, conf)
        if conf == 0.95:
            ok(g["exact"] == ("1" if exact else "0") and
               close(float(g["p"]), p, 1e-9),
               "%s: p %s, scipy %r" % (what, g["p"], p))
            ok(close(float(g["change"]), pct(med), 1e-12),
               "%s: change %s%%, here %r%%" % (what, g["change"], pct(med)))
        k = rank(n, n, yb + yc, 1 - conf, exact)
        if not k:
            ok(g["k"] == "0" and g["verdict"] == "too few runs",
               "%s at %g%%: no interval (k %s), too few runs" % (
                   what, conf * 100, g["k"]))
            continue
        lo, hi = pct(d[k - 1]), pct(d[nd - k])
        ok(int(g["k"]) == k and close(float(g["lo"]), lo, 1e-12) and
           close(float(g["hi"]), hi, 1e-12),
           "%s at %g%%: k %s [%s%%, %s%%], here k %d [%r%%, %r%%]" % (
               what, conf * 100, g["k"], g["lo"], g["hi"], k, lo, hi))


def main():
    rng = random.Random(19)
    print("TAP version 13")
    print("1..%d" % (len(SIZES) * 2 * 4))
    for n in SIZES:
        for with_ties in (False, True):
            case(n, with_ties, rng)
    sys.exit(1 if failed else 0)


main()
