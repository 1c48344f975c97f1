// Where a server's promoted garbage comes from: objects that survived young-generation collections
// (so were promoted to the old generation) and then died in a full collection. Those fill the old
// generation and bring the full collections that delay answers. Load it into the built server:
//
//   PROMOTED_AFTER_MS=8000 PROMOTED_FOR_MS=8000 PROMOTED_OUT=/tmp/promoted.txt \
//     node --import ./bench/promoted-garbage.mjs dist/server.js
//
// and put load on it meanwhile (bench/README.md, "Promoted garbage"). After PROMOTED_AFTER_MS it
// starts V8's sampling heap profiler, keeping only such objects; PROMOTED_FOR_MS later it writes the
// allocation stacks that made the most of their bytes to PROMOTED_OUT.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const AFTER_MS = Number(process.env.PROMOTED_AFTER_MS ?? 8000);
const FOR_MS = Number(process.env.PROMOTED_FOR_MS ?? 8000);
const OUT = process.env.PROMOTED_OUT ?? 'promoted-garbage.txt';
const TOP = 25;
const FRAMES = 6;

const session = new Session();
session.connect();
const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))));

const frameOf = ({ functionName, url, lineNumber }) => `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber}`;

/** Bytes sampled per allocation stack (its innermost FRAMES frames). */
function bytesByStack(head) {
  const bytes = new Map();
  const walk = (node, stack) => {
    const here = [...stack, frameOf(node.callFrame)];
    if (node.selfSize > 0) {
      const key = here.slice(-FRAMES).reverse().join(' < ');
      bytes.set(key, (bytes.get(key) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, here);
  };
  walk(head, []);
  return bytes;
}

setTimeout(async () => {
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false });
  setTimeout(async () => {
    const { profile } = await post('HeapProfiler.stopSampling');
    const bytes = bytesByStack(profile.head);
    const total = [...bytes.values()].reduce((a, b) => a + b, 0);
    const lines = [...bytes]
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP)
      .map(([stack, n]) => `${(n / 1024).toFixed(0).padStart(8)} kB ${((100 * n) / total).toFixed(1).padStart(5)} %  ${stack}`);
    writeFileSync(OUT, `Sampled bytes that survived young collections and died in a full one (or are still alive): ${(total / 1024).toFixed(0)} kB\n${lines.join('\n')}\n`);
  }, FOR_MS).unref();
}, AFTER_MS).unref();
