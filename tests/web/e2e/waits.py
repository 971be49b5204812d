"""Waiting in the page until an async check holds: ``wait_for_function`` does not await a promise
(it takes the promise for a true answer), so the check is asked again on each animation frame."""

from __future__ import annotations


def wait_until(page, check: str, arg=None, seconds: float = 30) -> bool:
    """Whether the async function ``check`` (JavaScript source) held for ``arg`` within ``seconds``."""
    until = f"""async ([arg, seconds]) => {{
      const holds = {check};
      const end = performance.now() + 1000 * seconds;
      while (performance.now() < end) {{
        if (await holds(arg)) return true;
        await new Promise((r) => requestAnimationFrame(r));
      }}
      return false;
    }}"""
    return page.evaluate(until, [arg, seconds])
