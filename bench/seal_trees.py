"""Give the committed trees and openers tables their digests (issue 25), without editing by hand.

Each tree in ``src/raten/data/trees`` is checked on its lists (``Tree.check``) and written
again, which adds ``digest=`` to its header and changes nothing else (checked here); each
openers table gets a ``digest`` column, one digest per row over the row's claim under the
tree's lists, mode and limit (``raten.trees.report.row_digest``). A row that already has a
digest must match it: the script re-seals nothing that was edited since.

The seal records the claims as they stand; it does not prove the rows (the exact search made
them; ``checker/check_optimum.py`` and ``tests/trees/test_tree_optimal.py`` check them).
The 6mal5 trees' lists are not a preset: pass their directory (``solutions.txt`` and
``allowed.txt``) with ``--6mal5 DIR``, or those files are skipped.

Run: ``.venv/bin/python bench/seal_trees.py --6mal5 ../shared/data/de``
"""

from __future__ import annotations

import argparse
from pathlib import Path

from raten.engine.words import WordSet
from raten.trees.model import SHIPPED_TREES, Tree
from raten.trees.report import TABLE_COLUMNS, row_digest
from raten.wordlists.files import read_word_file
from raten.wordlists.presets import ALL_PRESETS, load_words


def lists_for(name: str, prior: str, six: Path | None) -> WordSet | None:
    if name in ALL_PRESETS:
        return load_words(name, prior=prior)  # the tree's own prior, not the list's default
    if name == "6mal5" and six is not None:
        return WordSet.from_lists(
            read_word_file(six / "solutions.txt"), read_word_file(six / "allowed.txt"), name="6mal5"
        )
    return None


def seal_tree(path: Path, words: WordSet) -> Tree:
    tree = Tree.read(path)
    tree.check(words, source=str(path))
    old, new = path.read_text(encoding="utf-8").splitlines(), tree.to_text().splitlines()
    if old[0] != new[0] or old[2:] != new[2:]:
        raise SystemExit(f"{path}: writing it again would change more than its header")
    path.write_text(tree.to_text(), encoding="utf-8")
    return tree


def seal_table(path: Path, tree: Tree, words: WordSet) -> int:
    header = {"lists": words.prior_key, "mode": "hard" if tree.hard else "normal", "max_guesses": tree.max_guesses}
    lines = path.read_text(encoding="utf-8").splitlines()
    out = [TABLE_COLUMNS]
    for no, line in enumerate(lines[1:], 2):
        opener, status, total, worst, *rest = [*line.split("\t"), ""][:5]
        digest = row_digest(
            header,
            opener,
            status,
            None if total == "impossible" else int(total),
            int(worst) if worst else None,
        )
        if rest and rest[0] and rest[0] != digest:
            raise SystemExit(f"{path} line {no}: its digest {rest[0]} does not match its claim ({digest})")
        out.append("\t".join([opener, status, total, worst, digest]))
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return len(out) - 1


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--6mal5", dest="six", type=Path, help="directory with the 6mal5 solutions.txt and allowed.txt")
    args = p.parse_args()
    for path in sorted(SHIPPED_TREES.glob("*.txt")):
        tree = Tree.read(path)
        words = lists_for(tree.words_name, tree.prior, args.six)
        if words is None:
            print(f"{path.name}: skipped (its lists are not at hand)")
            continue
        tree = seal_tree(path, words)
        table = path.with_name(f"{path.stem}-openers.tsv")
        rows = seal_table(table, tree, words) if table.exists() else 0
        print(f"{path.name}: digest {tree.meta.get('digest') or tree.digest()}; {table.name}: {rows} rows")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
