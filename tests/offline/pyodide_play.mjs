// Plays matches in Pyodide under Node, as the page's worker does: loads the built archive of
// our package once, and for each level and seed starts an offline session against that level
// and plays it to the end (the person's side by the reference bot), then prints the records
// (a JSON list, one a match, in the order asked) for the test to replay on CPython.
// Usage: node pyodide_play.mjs <build dir> <level> <seed> [<level> <seed> ...]
import { readFileSync } from "node:fs";
import { join } from "node:path";

const [buildDir, ...matches] = process.argv.slice(2);
const { loadPyodide } = await import(join(buildDir, "pyodide", "pyodide.mjs"));
const pyodide = await loadPyodide({ indexURL: join(buildDir, "pyodide") + "/" });
pyodide.unpackArchive(new Uint8Array(readFileSync(join(buildDir, "spite_malice.zip"))), "zip", { extractDir: "/offline" });
pyodide.runPython("import sys; sys.path.insert(0, '/offline')");
const results = [];
for (let i = 0; i < matches.length; i += 2) {
  const [level, seed] = [matches[i], matches[i + 1]];
  results.push(pyodide.runPython(`
import json, sys
from spite_malice.bots import ReferenceBot
from spite_malice.offline.bridge import Bridge

bridge = Bridge()
made = json.loads(bridge.create(json.dumps(
    {"level": ${JSON.stringify(level)}, "rules": {"payoff_size": 5, "match_target": 1},
     "name": "Ann", "seed": ${Number(seed)}})))
room = made["ticket"]["room"]
hello = json.loads(bridge.hello(room, "en"))
assert [m["type"] for m in hello] == ["welcome", "state", "presence"], hello
session = bridge.sessions[room]
me = ReferenceBot(1)
count = 0
while not json.loads(bridge.record(room))["over"]:
    if bridge.computer_to_move(room):
        bridge.computer_move(room)
        continue
    move = me.choose(session.table.observation(0))
    out = json.loads(bridge.handle(room, json.dumps({"type": "move", "id": count, "move": str(move)})))
    assert out[0]["type"] == "update", out
    count += 1
from spite_malice.i18n import ngettext, use_language, _
texts = {}
for language in ("fr", "ru"):
    with use_language(language):
        texts[language] = [_("Claiming a game is for games between friends.")] + [
            ngettext("builds {n} card, then discards the {rank} onto side stack {side}",
                     "builds {n} cards, then discards the {rank} onto side stack {side}",
                     n, rank="K", side=1)
            for n in (1, 2, 5, 21)
        ]
json.dumps({"python": sys.version.split()[0], "record": json.loads(bridge.record(room)),
            "texts": texts})
`));
}
process.stdout.write(`[${results.join(",")}]`);
