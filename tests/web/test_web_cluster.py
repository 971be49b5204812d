"""The whole deployment on loopback (deploy/localcluster.py: nginx + 3 nodes + PostgreSQL +
Redis): 100 players, each from its own address, play whole games through nginx while one node
is killed with SIGKILL and started again. No answered move is lost (each player's games in the
database are what the player was told), no player sees an error that one retry does not mend,
the daily word is one, every node gives the same statistics, and the database is consistent."""

from __future__ import annotations

import asyncio
import json
import os
import random
import threading
from dataclasses import dataclass, field

import httpx
import pytest

from raten.engine.feedback import format_pattern, pattern
from raten.engine.state import State
from raten.wordlists.presets import load_words

pytestmark = pytest.mark.slow

PLAYERS = 100
LIST = "6mal5"  # small tables: three nodes start quickly on two shared cores
KILL_AFTER = 300  # answered moves before node 0 is killed
MORE_AFTER_RESTART = 150  # answered moves after it serves again, before the players finish


@pytest.fixture(scope="module")
def cluster():
    import localcluster
    import postgres_server  # noqa: F401 - puts deploy/ on the path

    try:
        with localcluster.Cluster(3, node_args=["--lists", LIST]) as c:
            yield c
    except (FileNotFoundError, RuntimeError) as e:
        if os.environ.get("RATEN_NEED_DEBIAN") == "1":
            pytest.fail(f"the cluster: {e}")
        pytest.skip(f"the cluster: {e}")


@dataclass
class Run:
    """What the players were told, and what went wrong, shared by all of them."""

    answered: int = 0
    retries: int = 0
    errors: list[str] = field(default_factory=list)
    told: dict[str, dict] = field(default_factory=dict)  # game id -> the last answer about it
    players: dict[str, set[str]] = field(default_factory=dict)  # player id -> its games
    killed: asyncio.Event = field(default_factory=asyncio.Event)
    restarted_at: int | None = None


async def call(run: Run, client: httpx.AsyncClient, method: str, url: str, body: dict | None = None) -> dict | None:
    """One request, tried once more if it fails (a node killed under it): the answer, or None."""
    problem = ""
    for attempt in range(2):
        try:
            r = await client.request(method, url, json=body)
        except httpx.TransportError as e:
            problem = f"{method} {url}: {type(e).__name__}"
        else:
            if r.status_code == 200:
                return r.json()
            problem = f"{method} {url}: {r.status_code} {r.text[:200]}"
        if attempt == 0:
            run.retries += 1
    run.errors.append(problem)
    return None


async def play_game(run: Run, client: httpx.AsyncClient, mode: str, start: State) -> bool:
    """One whole game: each guess a word that fits everything seen so far."""
    game = await call(run, client, "POST", "/api/games", {"list": LIST, "mode": mode})
    if game is None:
        return False
    run.told[game["id"]] = game
    run.players.setdefault(client.cookies["raten_player"], set()).add(game["id"])
    state = start
    while game["status"] == "playing":
        await asyncio.sleep(random.uniform(0.1, 0.3))  # a player's pause (and the rate per player)
        guess = random.choice(state.candidate_words)
        row = len(game["rows"])
        after = await call(run, client, "POST", f"/api/games/{game['id']}/guesses", {"guess": guess, "row": row})
        if after is None:
            return False
        game = run.told[game["id"]] = after
        run.answered += 1
        state = state.after(guess, game["rows"][row]["pattern"])
    return True


async def player(run: Run, index: int, base: str, start: State) -> None:
    """A player from its own loopback address: today's word, then practice games until the killed
    node has served again for a while."""
    transport = httpx.AsyncHTTPTransport(local_address=f"127.0.{index // 250}.{index % 250 + 2}")
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=60) as client:
        if not await play_game(run, client, "daily", start):
            return
        games = 1
        while games < 3 or run.restarted_at is None or run.answered < run.restarted_at + MORE_AFTER_RESTART:
            if not await play_game(run, client, "practice", start):
                return
            games += 1


async def players(run: Run, cluster, start: State) -> None:
    async def kill_and_restart() -> None:
        while run.answered < KILL_AFTER:
            await asyncio.sleep(0.1)
        cluster.nodes[0].kill()
        run.killed.set()
        await asyncio.to_thread(cluster.restart, 0)  # the players go on meanwhile
        run.restarted_at = run.answered

    supervisor = asyncio.ensure_future(kill_and_restart())
    await asyncio.gather(*(player(run, i, cluster.url, start) for i in range(PLAYERS)))
    await supervisor


def stored(cluster) -> dict[str, tuple]:
    """Every game in the database: id -> (player, mode, number, answer, rows, status)."""
    import psycopg

    with psycopg.connect(cluster.db) as conn:
        rows = conn.execute("SELECT id, player, mode, number, answer, rows, status FROM games").fetchall()
    return {r[0]: (r[1], r[2], r[3], r[4], json.loads(r[5]), r[6]) for r in rows}


def test_a_node_killed_under_100_players_loses_no_answered_move(cluster) -> None:
    start = State(load_words(LIST))
    run = Run()
    result: list[BaseException] = []

    def go() -> None:  # on a loop of its own (the browser tests keep one in this thread)
        try:
            asyncio.run(players(run, cluster, start))
        except BaseException as e:
            result.append(e)

    thread = threading.Thread(target=go)
    thread.start()
    thread.join()
    if result:
        raise result[0]
    assert run.killed.is_set() and run.restarted_at is not None
    print(f"{run.answered} moves answered, {len(run.told)} games, {run.retries} requests tried again")
    assert run.errors == [], f"{len(run.errors)} errors beyond one retry: {run.errors[:5]}"
    assert run.answered >= KILL_AFTER + MORE_AFTER_RESTART

    games = stored(cluster)
    for game_id, told in run.told.items():  # every answered move is in the database, as told
        player_id, mode, _number, _answer, rows, status = games[game_id]
        assert [(w, format_pattern(c)) for w, c in rows] == [(r["guess"], r["pattern"]) for r in told["rows"]]
        assert status == told["status"] and mode == told["mode"]
    for player_id, mine in run.players.items():  # and nothing the player was not told of
        played = {g for g, row in games.items() if row[0] == player_id and row[4]}
        assert played <= mine

    daily = {row[3] for row in games.values() if row[1] == "daily"}
    assert len(daily) == 1  # one daily word, whichever node made the game

    for _game_id, (_player, _mode, _number, answer, rows, status) in games.items():  # consistent rows
        assert status in ("playing", "won", "lost", "abandoned")
        assert all(c == pattern(w, answer) for w, c in rows)
        assert (status == "won") == bool(rows and rows[-1][0] == answer)
        assert status != "lost" or len(rows) == 6

    sample = random.Random(1).sample(sorted(run.players), 10)
    for player_id in sample:  # every node gives the same statistics
        for mode in ("daily", "practice"):
            seen = []
            for node in cluster.nodes:
                r = httpx.get(
                    f"{node.url}/api/stats", params={"list": LIST, "mode": mode}, cookies={"raten_player": player_id}
                )
                assert r.status_code == 200, r.text
                seen.append({k: v for k, v in r.json().items() if k != "next_daily_seconds"})
            assert seen[0] == seen[1] == seen[2]
            assert seen[0]["played"] == sum(
                1 for g in run.players[player_id] if run.told[g]["mode"] == mode and run.told[g]["status"] != "playing"
            )
