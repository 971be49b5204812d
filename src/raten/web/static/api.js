/* raten: the client of the JSON API (the server's answers, or an ApiError with its message). */
import { RATEN, tr } from "./config.js";

export class ApiError extends Error {
  constructor(message, status, code) { super(message); this.status = status; this.code = code; }
}

/** How long a request may take before the page gives up on it and offers a retry. */
const API_TIMEOUT_MS = 15000;

/** Whether the high-contrast palette is on: <html data-contrast="high">, set from localStorage["raten.contrast"]. */
function highContrast() {
  if (document.documentElement.dataset.contrast === "high") return true;
  try { return localStorage.getItem("raten.contrast") === "high"; } catch (e) { return false; }
}

/** Call the JSON API; resolves to the answer, or rejects with an ApiError carrying the server's message.
    A request that takes longer than options.timeout (default API_TIMEOUT_MS) is given up with the code
    "timeout"; one cancelled through options.signal rejects with an AbortError. */
export async function api(path, options) {
  const opts = options || {};
  // The share texts of games and statistics are built on the server: with the high-contrast
  // setting (<html data-contrast="high">) they use its orange and blue squares.
  if (highContrast() && /^\/api\/(games|stats)/.test(path)) {
    path += (path.includes("?") ? "&" : "?") + "palette=high";
  }
  const own = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => { timedOut = true; own.abort(); }, opts.timeout || API_TIMEOUT_MS);
  const onAbort = () => own.abort();
  if (opts.signal) {
    if (opts.signal.aborted) own.abort();
    else opts.signal.addEventListener("abort", onAbort);
  }
  const init = { method: opts.method || "GET", headers: { "Accept-Language": RATEN.lang }, signal: own.signal };
  if (opts.body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(opts.body);
  }
  try {
    let response;
    let data = null;
    try {
      response = await fetch(path, init);
      try { data = await response.json(); } catch (e) { data = null; }
    } catch (e) {
      if (timedOut) throw new ApiError(tr("timeout"), 0, "timeout");
      if (e.name === "AbortError") throw e;
      throw new ApiError(tr("network_error"), 0, "network");
    }
    if (timedOut) throw new ApiError(tr("timeout"), 0, "timeout");
    if (!response.ok) {
      throw new ApiError((data && data.error) || tr("network_error"), response.status, data && data.code);
    }
    return data;
  } finally {
    clearTimeout(timer);
    if (opts.signal) opts.signal.removeEventListener("abort", onAbort);
  }
}

/** Whether a failed request may succeed if tried again: no answer, a rate limit, a busy or failing server. */
export function retryable(e) {
  return e.status === 0 || e.status === 429 || e.status === 503 || e.status >= 500;
}
