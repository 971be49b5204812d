"""Compiled feasibility search: can every candidate of a set be solved within ``dl`` guesses?

Not an optimisation: the first guess that works is enough. Guesses are tried in the order of
the exact search (most groups first, ``scan.split_keys``), the groups of a guess largest first
(the likeliest to fail, so a guess that does not work is given up soonest), and a guess that
splits the set exactly like one already tried is skipped. The search is unrestricted (every
legal guess), so a "no" is a proof. Every settled set is memoised (1 or 0) in the exact
search's memo format (``raten.trees.memo``), keyed by the set, the guesses left and, in hard
mode, the revealed-letter rules.

Settled without a search: one candidate needs one guess, two need two (guess either), a set
with two guesses left needs a guess that splits it apart (``kernels.perfect_splitter``), and a
set larger than the patterns cannot be split apart by one guess.

A search stops at the work it may do (``kernels.ST_STOP_AT``, in table cells read): it then
returns ``UNKNOWN``, storing nothing above the set it stopped in.
"""

from __future__ import annotations

import numpy as np

from raten.engine.hardmode import rules_after
from raten.engine.jitcache import njit
from raten.trees.kernels import (
    NODE_CELLS,
    ST_CELLS,
    ST_NODES,
    legal_here,
    out_of_work,
    pattern_count,
    perfect_splitter,
)
from raten.trees.memo import ONE, memo_get, memo_put, mix64, set_key, state_hash
from raten.trees.scan import split_keys

#: What ``feasible`` returns.
NO, YES, UNKNOWN = 0, 1, -1


@njit(cache=True)
def feasible(T, memo, S, dl, hard, legal, greens, need, hh, stats):
    """``YES`` when every candidate of ``S`` (sorted solution indices) can be solved within
    ``dl`` guesses (the one that shows all green counted), ``NO`` when none of the legal guesses
    does it, ``UNKNOWN`` when the work ran out first.

    ``T`` = (pattern table solutions×guesses, solution→guess row, zobrist 1, zobrist 2, guess
    letters, guess letter counts); in hard mode ``legal`` are the guesses legal at the parent,
    ``greens``/``need`` the rules here and ``hh`` their hash.
    """
    Mt, _, z1, z2, glet, gcnt = T
    npat = pattern_count(T)
    green = npat - 1
    n = S.shape[0]
    stats[ST_NODES] += 1
    if n <= 1:
        return YES if dl >= n else NO
    if dl <= 1:
        return NO
    if n <= dl:
        return YES  # guess the candidates one by one: a candidate keeps every hard-mode rule
    if dl == 2:
        if n > npat:
            return NO
        L = legal_here(legal, glet, gcnt, greens, need, stats) if hard else legal
        stats[ST_CELLS] += n * 4
        return YES if perfect_splitter(Mt, S, L, npat) >= 0 else NO
    k1, k2 = set_key(S, z1, z2, dl, hh)
    k1, k2 = np.uint64(k1), np.uint64(k2)  # a no-op compiled; keeps the Python body's keys unsigned
    hit, v, _, _ = memo_get(memo, k1, k2)
    if hit:
        return np.int64(v)
    if out_of_work(stats):
        return UNKNOWN

    # the guesses here, as an array of the very type of ``legal``: a recursive call with argument
    # types other than its caller's crashes when numba loads it from its cache (numba #6713)
    L = np.ascontiguousarray(legal_here(legal, glet, gcnt, greens, need, stats)) if hard else legal
    keys = split_keys(Mt, S, L, npat)
    stats[ST_CELLS] += n * L.shape[0] + NODE_CELLS
    order = np.argsort(-keys, kind="mergesort")  # most groups first, earlier guess on a tie

    seen = np.zeros(1024, dtype=np.uint64)
    gsize = np.zeros(npat, dtype=np.int64)
    gstart = np.zeros(npat, dtype=np.int64)
    fill = np.zeros(npat, dtype=np.int64)
    gh1 = np.zeros(npat, dtype=np.uint64)
    touched = np.empty(npat, dtype=np.int64)
    codes = np.empty(n, dtype=np.int64)
    buf = np.empty(n, dtype=np.int32)
    unknown = False
    for oi in range(order.shape[0]):
        i = order[oi]
        if keys[i] == 0:
            break  # this guess and every later one learns nothing
        if out_of_work(stats):
            return UNKNOWN
        g = L[i]
        ng = 0
        biggest = 0
        for j in range(n):
            c = np.int64(Mt[S[j], g])
            codes[j] = c
            if gsize[c] == 0:
                touched[ng] = c
                ng += 1
                gh1[c] = 0
            gsize[c] += 1
            gh1[c] += z1[S[j]]
        stats[ST_CELLS] += n
        sig = np.uint64(0)
        for t in range(ng):
            c = touched[t]
            if c != green and gsize[c] > biggest:
                biggest = gsize[c]
            hc = gh1[c]
            if hard and gsize[c] >= 3 and c != green:
                rg, rn = rules_after(glet[g], c, greens, need)  # the rules the group is left under
                hc ^= state_hash(rg, rn)
            sig += mix64(hc)
        sig = mix64(sig) | ONE
        h = np.int64(sig & np.uint64(seen.shape[0] - 1))
        dup = False
        for _ in range(seen.shape[0]):
            if seen[h] == 0:
                seen[h] = sig
                break
            if seen[h] == sig:
                dup = True
                break
            h = (h + 1) & (seen.shape[0] - 1)
        if dup or (dl == 3 and biggest > npat):
            for t in range(ng):
                gsize[touched[t]] = 0
            continue
        # lay the groups out in buf, largest first
        for a in range(1, ng):  # insertion sort of the touched patterns by size, descending
            c = touched[a]
            b = a - 1
            while b >= 0 and gsize[touched[b]] < gsize[c]:
                touched[b + 1] = touched[b]
                b -= 1
            touched[b + 1] = c
        p = 0
        for t in range(ng):
            c = touched[t]
            gstart[c] = p
            fill[c] = p
            p += gsize[c]
        for j in range(n):
            c = codes[j]
            buf[fill[c]] = S[j]
            fill[c] += 1
        ok = True
        for t in range(ng):
            c = touched[t]
            m = gsize[c]
            if c == green or m <= 1:
                continue
            grp = buf[gstart[c] : gstart[c] + m].copy()  # sorted (S is); a copy, typed as S is
            if hard:
                rg, rn = rules_after(glet[g], c, greens, need)
                r = feasible(T, memo, grp, dl - 1, hard, L, rg, rn, state_hash(rg, rn), stats)
            else:
                r = feasible(T, memo, grp, dl - 1, hard, L, greens, need, hh, stats)
            if r != YES:
                ok = False
                if r == UNKNOWN:
                    unknown = True
                break
        for t in range(ng):
            gsize[touched[t]] = 0
        if ok:
            memo_put(memo, k1, k2, YES, g, 1)
            return YES
    if unknown:
        return UNKNOWN
    memo_put(memo, k1, k2, NO, -1, 1)
    return NO


@njit(cache=True)
def judge_guesses(T, memo, S, rows, left, hard, legal, greens, need, hh, count, stats, safe, at_risk):
    """For each guess ``rows[i]`` with ``left`` guesses left (it included): ``safe[i]`` = ``YES``
    when every group of ``S`` it leaves is ``feasible`` within ``left - 1``, ``NO`` when one is
    not (``at_risk[i]``: the words of the groups that are not; with ``count`` false only the
    first), else ``UNKNOWN``. The groups are tried largest first, the likeliest to fail; arguments
    as ``feasible``'s, ``legal`` the guesses legal here."""
    Mt, _, _, _, glet, _ = T
    npat = pattern_count(T)
    n = S.shape[0]
    gsize = np.zeros(npat, dtype=np.int64)
    fill = np.zeros(npat, dtype=np.int64)
    gstart = np.zeros(npat, dtype=np.int64)
    order = np.empty(npat, dtype=np.int64)
    buf = np.empty(n, dtype=np.int32)
    for i in range(rows.shape[0]):
        g = rows[i]
        for j in range(n):
            gsize[np.int64(Mt[S[j], g])] += 1
        ng = 0
        for c in range(npat):  # the groups in code order, then stably largest first
            if gsize[c] > 0:
                b = ng - 1
                while b >= 0 and gsize[order[b]] < gsize[c]:
                    order[b + 1] = order[b]
                    b -= 1
                order[b + 1] = c
                ng += 1
        p = 0
        for c in range(npat):
            gstart[c] = p
            fill[c] = p
            p += gsize[c]
        for j in range(n):  # S is sorted, so is each group
            code = np.int64(Mt[S[j], g])
            buf[fill[code]] = S[j]
            fill[code] += 1
        risk = 0
        unknown = False
        for t in range(ng):
            c = order[t]
            if c == npat - 1:
                continue
            grp = buf[gstart[c] : gstart[c] + gsize[c]].copy()
            if hard:
                rg, rn = rules_after(glet[g], c, greens, need)
                r = feasible(T, memo, grp, left - 1, hard, legal, rg, rn, state_hash(rg, rn), stats)
            else:
                r = feasible(T, memo, grp, left - 1, hard, legal, greens, need, hh, stats)
            if r == NO:
                risk += gsize[c]
                if not count:
                    break
            elif r == UNKNOWN:
                unknown = True
        for c in range(npat):
            gsize[c] = 0
        at_risk[i] = risk
        safe[i] = NO if risk else (UNKNOWN if unknown else YES)
