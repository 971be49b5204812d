"""Compiled core of the exact decision-tree search (numba).

``solve`` returns the least total number of guesses that solves every candidate of a set
(a candidate guessed counts one guess, its all-green), or, when that total is at least a
bound ``beta``, some lower bound that is at least ``beta`` (a cut-off). Every candidate
carries a positive integer weight (``T[6]``; all 1 under the uniform prior) and a total is
the sum of weight x guesses, so under a prior it is the expected number of guesses times
the weight of the set. With weights all 1 every formula below is the unweighted one. It is
a depth-first branch and bound over guesses:

- a set of weight W needs at least 2W - (its heaviest candidate's weight) guesses, since
  only the first guess can solve a candidate in one (uniform: 2n - 1); a guess that splits
  it into groups costs at least 3W - (sum of each group's heaviest weight) - (its own weight
  when it is a candidate) (uniform: 3n - k - 1 for a candidate, 3n - k otherwise);
- guesses are tried in order of that bound (most groups first), so the first ones give a
  tight best total and the rest are cut off by the bound as soon as it reaches it;
- guesses that split the set the same way as one already tried are skipped; in hard mode
  only when every group of three or more is also left under the same rules (greens and
  letters needed), since two guesses with one split can allow different later guesses;
- every solved set is memoised (value, or proven lower bound, and the best guess) in an
  open-addressing table keyed by a 128-bit Zobrist hash of the set, the guesses left
  (depth) and, in hard mode, the revealed-letter constraints;
- small sets are settled by formula: 2W - w when the heaviest candidate (weight w) splits
  the others apart (uniform: 2n - 1), 2W - w + (the lighter of the pair) when a candidate
  leaves one pair and that meets the bound 2W - (heaviest) + (lightest) of a set no
  candidate splits apart (uniform: 2n); with one guess left before the answer, the best
  candidate that splits the set apart, else 2W when any guess does (found by a scan that
  drops a guess at its first collision).

A search may be given an amount of work at which it stops (``stats[ST_STOP_AT]``, in table
cells read, for a request's budget): it then returns the lower bound of the set it stopped in
and sets ``stats[ST_STOPPED]``, and every node above it returns its own lower bound at once,
storing nothing in the memo, so what the memo holds stays exact.

All arrays are integers; strings stay in ``trees.search``.
"""

from __future__ import annotations

import numpy as np

from raten.engine.hardmode import keeping, reveal, rules_after
from raten.engine.jitcache import njit
from raten.trees.memo import ONE, depth_key, memo_get, memo_put, mix64, set_key, state_hash
from raten.trees.scan import split_keys

#: Larger than any total: "cannot be done within the guesses left".
INF = 1 << 40
#: Depth value meaning "no limit" (never decremented, so sets share memo entries at any depth).
UNLIMITED = 255

# slots of the statistics array. ST_CELLS counts the work done: pattern-table cells read by the
# scans and partitions, the bulk of a search's time. ST_STOP_AT (0: never) is an input, the
# ST_CELLS at which a search stops; ST_STOPPED is set to 1 when it did.
ST_NODES, ST_SCANS, ST_EVALS, ST_MEMO_HITS, ST_DEDUPED, ST_STOP_AT, ST_STOPPED, ST_CELLS = 0, 1, 2, 3, 4, 5, 6, 7
N_STATS = 8
#: ``ST_CELLS`` counted for work that reads no table cell but takes about as long as reading
#: this many: checking one word against the hard-mode rules, one group's rules and hashes in
#: hard mode, and setting up a node's loop over its guesses. Timed on en's review searches: with
#: these, a counted cell takes about 1 ns in both modes (without them hard mode's took 3 ns).
KEEP_CELLS = 8
GROUP_CELLS = 64
NODE_CELLS = 4096


@njit(cache=True)
def set_weights(wt, S):
    """(total weight, heaviest, lightest) of the candidates ``S``."""
    tot = np.int64(0)
    hi = np.int64(0)
    lo = np.int64(INF)
    for j in range(S.shape[0]):
        w = wt[S[j]]
        tot += w
        if w > hi:
            hi = w
        if w < lo:
            lo = w
    return tot, hi, lo


@njit(cache=True, inline="always")
def pattern_count(T) -> int:
    """Feedback codes of the words of the search's tables ``T``: 3 ** length (the guesses'
    letters, ``T[4]``, hold the length); the all-green code is one less."""
    return 3 ** T[4].shape[1]


@njit(cache=True)
def candidate_splits(Mt, sol_row, wt, S, W, wmax, npat):
    """The candidates of ``S`` that split it apart or leave a single pair:
    (least cost of a perfect split 2W - w, its guess row, least cost of a one-pair split
    2W - w + lighter of the pair, its guess row), INF and -1 where there is none. Stops at a
    perfect split by the heaviest candidate (2W - wmax, the least any guess can reach); sets
    larger than the ``npat`` patterns cannot be split apart by a candidate: (INF, -1, INF, -1)."""
    n = S.shape[0]
    stamp = np.zeros(npat, dtype=np.int64)
    first = np.zeros(npat, dtype=np.int64)
    tick = np.int64(0)
    pval = np.int64(INF)
    pg = -1
    qval = np.int64(INF)
    qg = -1
    if n <= npat:
        for i in range(n):
            g = sol_row[S[i]]
            tick += 1
            k = 0
            pair_min = np.int64(0)
            for j in range(n):
                c = Mt[S[j], g]
                if stamp[c] != tick:
                    stamp[c] = tick
                    first[c] = j
                    k += 1
                else:  # with k = n - 1 in the end, the one collision: the pair
                    a = wt[S[first[c]]]
                    b = wt[S[j]]
                    pair_min = a if a < b else b
            if k == n:
                v = 2 * W - wt[S[i]]
                if v < pval:
                    pval = v
                    pg = g
                    if wt[S[i]] == wmax:
                        break
            elif k == n - 1:
                v = 2 * W - wt[S[i]] + pair_min
                if v < qval:
                    qval = v
                    qg = g
    return pval, pg, qval, qg


@njit(cache=True)
def weighted_split_keys(Mt, S, L, wt, npat):
    """For each guess of ``L``: the sum of its groups' heaviest weights over ``S``, plus its own
    weight when it is a candidate (0 when it learns nothing): it costs at least 3W - key."""
    n = S.shape[0]
    nl = L.shape[0]
    keys = np.zeros(nl, dtype=np.int64)
    stamp = np.zeros(npat, dtype=np.int64)
    gmax = np.zeros(npat, dtype=np.int64)
    green = npat - 1
    tick = np.int64(0)
    for i in range(nl):
        g = L[i]
        tick += 1
        k = 0
        key = np.int64(0)
        for j in range(n):
            c = Mt[S[j], g]
            w = wt[S[j]]
            if stamp[c] != tick:
                stamp[c] = tick
                gmax[c] = w
                key += w
                k += 1
            elif w > gmax[c]:
                key += w - gmax[c]
                gmax[c] = w
        if stamp[green] == tick:
            key += gmax[green]
            k += 1
        if k >= 2:
            keys[i] = key
    return keys


@njit(cache=True)
def guess_keys(Mt, S, L, wt, wmax, npat):
    """Each guess's key (``weighted_split_keys``): with weights all 1 (``wmax`` 1) the fast
    branch-free scan of ``raten.trees.scan`` (groups + 1 for a candidate), else the weighted one."""
    if wmax == 1:
        return split_keys(Mt, S, L, npat).astype(np.int64)
    return weighted_split_keys(Mt, S, L, wt, npat)


@njit(cache=True)
def perfect_splitter(Mt, S, L, npat):
    """The first guess of ``L`` that splits ``S`` into groups of one (-1 if none): with one guess
    left before the answer, the only guesses that will do. Each guess is dropped at its first
    repeated pattern, so most cost a few lookups rather than ``len(S)``."""
    n = S.shape[0]
    if n > npat:
        return -1
    stamp = np.zeros(npat, dtype=np.int64)
    for i in range(L.shape[0]):
        g = L[i]
        tick = np.int64(i + 1)
        ok = True
        for j in range(n):
            c = Mt[S[j], g]
            if stamp[c] == tick:
                ok = False
                break
            stamp[c] = tick
        if ok:
            return g
    return -1


@njit(cache=True)
def legal_here(legal, glet, gcnt, greens, need, stats):
    """The guesses of ``legal`` that keep the hard-mode rules (``keeping``), its work counted:
    checking a word costs about what reading 4 to 8 table cells does."""
    stats[ST_CELLS] += KEEP_CELLS * legal.shape[0]
    return keeping(legal, glet, gcnt, greens, need)


@njit(cache=True)
def out_of_work(stats):
    """Whether the search has done the work it may (``ST_STOP_AT``); if so it is marked stopped,
    and the node returns its lower bound, storing nothing, as does every node above it."""
    if stats[ST_STOP_AT] > 0 and stats[ST_CELLS] >= stats[ST_STOP_AT]:
        stats[ST_STOPPED] = 1
        return True
    return False


@njit(cache=True)
def solve(T, memo, S, beta, dl, hard, legal, greens, need, hh, stats, deep, dedup):
    """Least total guesses for candidate set ``S`` (sorted solution indices) if below ``beta``,
    else a lower bound that is at least ``beta``.

    ``T`` = (pattern table solutions×guesses, solution→guess row, zobrist 1, zobrist 2,
    guess letters, guess letter counts, solution weights); ``dl`` guesses left (``UNLIMITED``
    for no limit); in hard mode ``legal`` are the guesses legal at the parent, ``greens``/``need``
    the constraints here and ``hh`` their hash. ``dedup`` 0 tries every guess (to test the skip).
    """
    Mt, sol_row, z1, z2, glet, gcnt, wt = T
    npat = pattern_count(T)
    green = npat - 1
    n = S.shape[0]
    stats[ST_NODES] += 1
    if n == 1:
        return np.int64(wt[S[0]])
    if dl <= 1:
        return np.int64(INF)
    W, wmax, wmin = set_weights(wt, S)
    if n == 2:
        return np.int64(W + wmin)
    k1, k2 = set_key(S, z1, z2, dl, hh)
    k1, k2 = np.uint64(k1), np.uint64(k2)  # a no-op compiled; keeps the Python body's keys unsigned
    lb = np.int64(2 * W - wmax)
    hit, v, ex, _ = memo_get(memo, k1, k2)
    if hit:
        stats[ST_MEMO_HITS] += 1
        if ex == 1 or v >= beta:
            return v
        if v > lb:
            lb = v
    if lb >= beta:
        return lb
    if out_of_work(stats):
        return lb
    cdl = dl if dl >= UNLIMITED else dl - 1

    # Candidates first (cheap, n x n): a perfect split by the heaviest settles the set at 2W - wmax.
    pval, pg, qval, qg = candidate_splits(Mt, sol_row, wt, S, W, wmax, npat)
    stats[ST_CELLS] += n * n
    if pval == 2 * W - wmax:
        memo_put(memo, k1, k2, pval, pg, 1)
        return pval
    if cdl <= 1 and pg >= 0:
        # one guess before the answer: only perfect splits do, and a candidate one beats any other
        memo_put(memo, k1, k2, pval, pg, 1)
        return pval
    # no guess beats the best perfect split of a candidate; without one, every guess costs at
    # least 2W - wmax + wmin (a candidate leaves a group of two or more, a non-candidate costs 2W)
    floor = np.int64(2 * W - wmax + wmin)
    if pval < floor:
        floor = pval
    if lb < floor:
        lb = floor
    if pg < 0 and qval == floor and cdl >= 2:
        memo_put(memo, k1, k2, qval, qg, 1)
        return qval
    if lb >= beta:
        memo_put(memo, k1, k2, lb, -1, 0)
        return lb
    if cdl <= 1:
        # one guess before the answer, and no candidate splits the set apart: 2W if some other
        # guess does, else impossible
        gp = perfect_splitter(Mt, S, legal_here(legal, glet, gcnt, greens, need, stats) if hard else legal, npat)
        v = np.int64(2 * W) if gp >= 0 else np.int64(INF)
        memo_put(memo, k1, k2, v, gp, 1)
        return v

    # Every legal guess: key = the sum of its groups' heaviest weights, plus its own weight
    # when it is a candidate (uniform: groups k, plus 1), so it costs at least 3W - key.
    L = legal_here(legal, glet, gcnt, greens, need, stats) if hard else legal
    nl = L.shape[0]
    keys = guess_keys(
        Mt, S, L, wt, wmax, npat
    )  # 0: learns nothing (one guess left before the answer was settled above)
    maxkey = keys.max() if nl else 0
    stats[ST_SCANS] += 1
    stats[ST_CELLS] += n * nl
    if maxkey == 0:
        memo_put(memo, k1, k2, INF, -1, 1)
        return np.int64(INF)
    if 3 * W - maxkey > lb:
        lb = np.int64(3 * W - maxkey)
    if lb >= beta:
        memo_put(memo, k1, k2, lb, -1, 0)
        return lb

    # Guesses whose bound is below beta, highest key first, earlier guess first on a tie
    # (a bucket sort when the keys are small, as with weights all 1).
    thr = 3 * W - beta  # a guess can only help if its key > thr
    min_cut = np.int64(INF)  # least bound among the guesses cut off here
    pos = 0
    for i in range(nl):
        key = keys[i]
        if key > 0:
            if key > thr:
                pos += 1
            elif 3 * W - key < min_cut:
                min_cut = 3 * W - key
    order = np.empty(pos, dtype=np.int32)
    okey = np.empty(pos, dtype=np.int64)
    if maxkey <= n + 2:
        cnt = np.zeros(n + 3, dtype=np.int64)
        for i in range(nl):
            key = keys[i]
            if key > 0 and key > thr:
                cnt[key] += 1
        start = np.zeros(n + 3, dtype=np.int64)
        p0 = 0
        for b in range(n + 2, 0, -1):
            start[b] = p0
            p0 += cnt[b]
        for i in range(nl):
            key = keys[i]
            if key > 0 and key > thr:
                order[start[key]] = L[i]
                okey[start[key]] = key
                start[key] += 1
    else:
        sel = np.empty(pos, dtype=np.int64)
        p0 = 0
        for i in range(nl):
            if keys[i] > 0 and keys[i] > thr:
                sel[p0] = i
                p0 += 1
        rank = np.argsort(-keys[sel], kind="mergesort")
        for r in range(pos):
            i = sel[rank[r]]
            order[r] = L[i]
            okey[r] = keys[i]

    stats[ST_CELLS] += NODE_CELLS + pos
    cap = 16
    while cap < 2 * pos:
        cap *= 2
    seen = np.zeros(cap, dtype=np.uint64)
    codes = np.empty(n, dtype=np.int32)
    gsize = np.zeros(npat, dtype=np.int64)
    gw = np.zeros(npat, dtype=np.int64)
    gmax = np.zeros(npat, dtype=np.int64)
    gmin = np.zeros(npat, dtype=np.int64)
    gstart = np.zeros(npat, dtype=np.int64)
    gh1 = np.zeros(npat, dtype=np.uint64)
    gh2 = np.zeros(npat, dtype=np.uint64)
    ghh = np.zeros(npat, dtype=np.uint64)  # hard mode: hash of the rules a group is left under
    rg = np.empty_like(greens)
    rn = np.empty_like(need)
    touched = np.empty(npat, dtype=np.int32)
    buf = np.empty(n, dtype=np.int32)
    clb = np.zeros(npat, dtype=np.int64)
    cexact = np.zeros(npat, dtype=np.uint8)
    best = np.int64(beta)
    bestg = -1
    fail_min = np.int64(INF)
    for oi in range(pos):
        if out_of_work(stats):  # one guess's look-ahead may scan up to n x guesses cells
            return lb
        g = order[oi]
        glb = 3 * W - okey[oi]
        if glb >= best:
            if glb < fail_min:
                fail_min = glb
            break
        # partition S by the feedback of g
        ng = 0
        for j in range(n):
            c = Mt[S[j], g]
            w = wt[S[j]]
            codes[j] = c
            if gsize[c] == 0:
                touched[ng] = c
                ng += 1
                gh1[c] = 0
                gh2[c] = 0
                gw[c] = 0
                gmax[c] = w
                gmin[c] = w
            gsize[c] += 1
            gw[c] += w
            if w > gmax[c]:
                gmax[c] = w
            if w < gmin[c]:
                gmin[c] = w
            gh1[c] += z1[S[j]]
            gh2[c] += z2[S[j]]
        stats[ST_CELLS] += n + ng * (GROUP_CELLS if hard else 1)  # a duplicate costs this much too
        sig = np.uint64(okey[oi])
        p = 0
        for t in range(ng):
            c = touched[t]
            gstart[c] = p
            p += gsize[c]
            ghh[c] = hh
            if hard and gsize[c] >= 3 and c != green:
                # what this guess allows later in this group (groups of 1 or 2 cost the same
                # under any rules: a candidate is always legal)
                rg[:] = greens
                rn[:] = need
                reveal(glet[g], c, rg, rn)
                ghh[c] = state_hash(rg, rn)
            sig += mix64(gh1[c] ^ (gh2[c] >> np.uint64(7)) ^ ghh[c])
        sig = mix64(sig) | ONE
        # skip a guess that splits the set exactly like one already tried (and, in hard
        # mode, leaves every group under the same rules)
        h = np.int64(sig & np.uint64(cap - 1))
        dup = False
        while dedup and seen[h] != 0:
            if seen[h] == sig:
                dup = True
                break
            h = (h + 1) & (cap - 1)
        if dup:
            for t in range(ng):
                gsize[touched[t]] = 0
            stats[ST_DEDUPED] += 1
            continue
        if dedup:
            seen[h] = sig
        stats[ST_EVALS] += 1
        for j in range(n):
            c = codes[j]
            buf[gstart[c]] = S[j]
            gstart[c] += 1
        # lower bound of each group: formula, improved by the memo
        sizes = np.empty(ng, dtype=np.int64)
        total = np.int64(W)
        for t in range(ng):
            c = touched[t]
            m = gsize[c]
            sizes[t] = m
            gstart[c] -= m
            cexact[c] = 0
            if c == green:
                clb[c] = 0
                cexact[c] = 1
            elif m == 1:
                clb[c] = gw[c]
                cexact[c] = 1
            elif cdl <= 1:
                clb[c] = INF
                cexact[c] = 1
            elif m == 2:
                clb[c] = gw[c] + gmin[c]
                cexact[c] = 1
            else:
                clb[c] = 2 * gw[c] - gmax[c]
                ck2 = np.uint64(depth_key(gh2[c], cdl, ghh[c]))
                hit, v, ex, _ = memo_get(memo, gh1[c] | ONE, ck2)
                if hit:
                    if ex == 1:
                        clb[c] = v
                        cexact[c] = 1
                    elif v > clb[c]:
                        clb[c] = v
            total += clb[c]
        idx = np.argsort(-sizes)
        if deep and total < best:
            # one level of look-ahead for every open group but the largest (the first one
            # solved, whose own scan gives that bound at once), before any is solved
            for ti in range(1, ng):
                c = touched[idx[ti]]
                if cexact[c] == 1 or gsize[c] < 3:
                    continue
                s0 = gstart[c]
                child = buf[s0 : s0 + gsize[c]]
                if hard:
                    cg, cn = rules_after(glet[g], c, greens, need)
                    v, ex = level_bound(T, memo, child, cdl, hard, L, cg, cn, ghh[c], stats)
                else:
                    v, ex = level_bound(T, memo, child, cdl, hard, L, greens, need, hh, stats)
                if v > clb[c]:
                    total += v - clb[c]
                    clb[c] = v
                cexact[c] = ex
                if total >= best:
                    break
        if total < best:
            # solve the open groups, largest first, each within what is left of the budget
            for t in idx:
                c = touched[t]
                if cexact[c] == 1:
                    continue
                s0 = gstart[c]
                child = buf[s0 : s0 + gsize[c]]
                cbeta = best - (total - clb[c])
                if hard:
                    cg, cn = rules_after(glet[g], c, greens, need)
                    v = solve(T, memo, child, cbeta, cdl, hard, L, cg, cn, ghh[c], stats, deep, dedup)
                else:
                    v = solve(T, memo, child, cbeta, cdl, hard, L, greens, need, hh, stats, deep, dedup)
                if stats[ST_STOPPED] != 0:
                    return lb
                total += v - clb[c]
                if total >= best:
                    break
        for t in range(ng):
            gsize[touched[t]] = 0
        if total < best:
            best = total
            bestg = g
        elif total < fail_min:
            fail_min = total
    if stats[ST_STOPPED] != 0:  # a child stopped in the last guess's groups: store nothing
        return lb
    if bestg >= 0:
        memo_put(memo, k1, k2, best, bestg, 1)
        return best
    low = min(fail_min, min_cut)
    if low < beta:
        low = np.int64(beta)
    if low < lb:
        low = lb
    memo_put(memo, k1, k2, low, -1, 0)
    return low


@njit(cache=True)
def best_guess(T, memo, S, dl, hard, legal, greens, need, stats, deep, dedup):
    """(least total, a guess that achieves it) for set ``S``; guess -1 when it cannot be done."""
    _Mt, sol_row, z1, z2, _glet, _gcnt, wt = T
    n = S.shape[0]
    hh = state_hash(greens, need) if hard else np.uint64(0)
    v = solve(T, memo, S, np.int64(INF), dl, hard, legal, greens, need, hh, stats, deep, dedup)
    if v >= INF or stats[ST_STOPPED] != 0:
        return v, -1
    if n <= 2:  # the heavier of two first (the first on a tie)
        return v, np.int64(sol_row[S[1]] if n == 2 and wt[S[1]] > wt[S[0]] else sol_row[S[0]])
    k1, k2 = set_key(S, z1, z2, dl, hh)
    hit, _, ex, bg = memo_get(memo, k1, k2)
    if not hit or ex != 1 or bg < 0:
        # evicted meanwhile: solve once more just above the value, which stores it again
        v = solve(T, memo, S, v + 1, dl, hard, legal, greens, need, hh, stats, deep, dedup)
        hit, _, ex, bg = memo_get(memo, k1, k2)
        if not hit or stats[ST_STOPPED] != 0:
            return v, -1
    return v, np.int64(bg)


@njit(cache=True)
def solve_set(T, memo, S, beta, dl, hard, legal, greens, need, stats, deep, dedup):
    """``solve`` with the constraint hash computed here (entry point from Python)."""
    hh = state_hash(greens, need) if hard else np.uint64(0)
    return solve(T, memo, S, beta, dl, hard, legal, greens, need, hh, stats, deep, dedup)


@njit(cache=True)
def level_bound(T, memo, S, dl, hard, legal, greens, need, hh, stats):
    """(lower bound, exact flag) of the cost of set ``S`` from one level of look-ahead.

    For n >= 3 candidates of weight W and a guess g that splits them into groups, every group
    of weight W_c other than g's own all-green one needs at least 2 W_c - (its heaviest weight),
    so g costs at least W + sum(2 W_c - heaviest) = 3W - key, key = the sum of the groups'
    heaviest weights plus g's weight when it is a candidate (uniform: 3n - k - w, w = 1 when g is
    a candidate). The bound is the least of that over the guesses at hand (guesses that learn
    nothing cost INF), raised to 2W - heaviest + lightest when no candidate splits the set apart
    (a non-candidate guess costs at least 2W, a candidate one leaves a group of two or more;
    uniform: 2n), and to what the memo knows. Small sets, perfect splits and sets with one guess
    left before the answer are settled exactly (flag 1), like ``solve``. The bound is stored in
    the memo (as a bound, or exact), so ``solve`` starts from it.
    """
    Mt, sol_row, z1, z2, glet, gcnt, wt = T
    npat = pattern_count(T)
    n = S.shape[0]
    if n == 1:
        return np.int64(wt[S[0]]), 1
    if dl <= 1:
        return np.int64(INF), 1
    W, wmax, wmin = set_weights(wt, S)
    if n == 2:
        return np.int64(W + wmin), 1
    k1, k2 = set_key(S, z1, z2, dl, hh)
    k1, k2 = np.uint64(k1), np.uint64(k2)  # a no-op compiled; keeps the Python body's keys unsigned
    lb = np.int64(2 * W - wmax)
    hit, v, ex, _ = memo_get(memo, k1, k2)
    if hit:
        stats[ST_MEMO_HITS] += 1
        if ex == 1:
            return v, 1
        if v > lb:
            lb = v
    cdl = dl if dl >= UNLIMITED else dl - 1
    pval, pg, qval, qg = candidate_splits(Mt, sol_row, wt, S, W, wmax, npat)
    stats[ST_CELLS] += n * n
    if pval == 2 * W - wmax or (cdl <= 1 and pg >= 0):
        memo_put(memo, k1, k2, pval, pg, 1)
        return pval, 1
    floor = np.int64(2 * W - wmax + wmin)
    if pval < floor:
        floor = pval
    if pg < 0 and qval == floor and cdl >= 2:
        memo_put(memo, k1, k2, qval, qg, 1)
        return qval, 1
    if lb < floor:
        lb = floor
    if cdl <= 1:  # as in ``solve``: exact at once
        gp = perfect_splitter(Mt, S, legal_here(legal, glet, gcnt, greens, need, stats) if hard else legal, npat)
        v = np.int64(2 * W) if gp >= 0 else np.int64(INF)
        memo_put(memo, k1, k2, v, gp, 1)
        return v, 1
    L = legal_here(legal, glet, gcnt, greens, need, stats) if hard else legal
    keys = guess_keys(
        Mt, S, L, wt, wmax, npat
    )  # 0: learns nothing (one guess left before the answer was settled above)
    maxkey = keys.max() if L.shape[0] else 0
    stats[ST_SCANS] += 1
    stats[ST_CELLS] += n * L.shape[0]
    if maxkey == 0:
        memo_put(memo, k1, k2, INF, -1, 1)
        return np.int64(INF), 1
    if 3 * W - maxkey > lb:
        lb = np.int64(3 * W - maxkey)
    memo_put(memo, k1, k2, lb, -1, 0)
    return lb, 0


@njit(cache=True)
def level_bound_set(T, memo, S, dl, hard, legal, greens, need, stats):
    """``level_bound`` with the constraint hash computed here (entry point from Python)."""
    hh = state_hash(greens, need) if hard else np.uint64(0)
    return level_bound(T, memo, S, dl, hard, legal, greens, need, hh, stats)
