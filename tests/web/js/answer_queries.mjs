// Answers /api/hints bodies with the device engine (engine.js) for tests/web/test_device_prior.py:
// reads {"list": <list file>, "queries": [...]} from the file named first, writes the answers as
// JSON to stdout. Run by that test, against the server's answers it computed.
import fs from "node:fs";

import { Solver, WordList } from "../../../src/raten/web/static/device/engine.js";

const { list, queries } = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const solver = new Solver(new WordList(list));
const answers = queries.map((q) => {
  try {
    return { ok: true, data: solver.hints(q) };
  } catch (e) {
    return { ok: false, message: String(e.message || e), key: e.key || null };
  }
});
process.stdout.write(JSON.stringify(answers));
