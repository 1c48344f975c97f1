import { describe, expect, it } from 'vitest';
import { queueByKey } from '../../server/db/queue-by-key';

/** A call that records when it starts and ends, and settles when told to. */
function controlled(log: string[], name: string) {
  let settle!: (fail: boolean) => void;
  const done = new Promise<string>((resolve, reject) => {
    settle = (fail) => (fail ? reject(new Error(name)) : resolve(name));
  });
  return {
    call: async () => {
      log.push(`start ${name}`);
      try {
        return await done;
      } finally {
        log.push(`end ${name}`);
      }
    },
    settle,
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('queueByKey', () => {
  it('runs the calls of one key one at a time, in order, past a failing one; other keys at once', async () => {
    const run = queueByKey();
    const log: string[] = [];
    const [a1, a2, a3, b1] = ['a1', 'a2', 'a3', 'b1'].map((name) => controlled(log, name)) as ReturnType<typeof controlled>[];
    const results = [run('a', a1!.call), run('a', a2!.call), run('a', a3!.call), run('b', b1!.call)].map((p) =>
      p.then(
        (v) => `ok ${v}`,
        (e: Error) => `failed ${e.message}`,
      ),
    );
    await turn();
    expect(log).toEqual(['start a1', 'start b1']);
    a1!.settle(true);
    await turn();
    expect(log).toEqual(['start a1', 'start b1', 'end a1', 'start a2']);
    a2!.settle(false);
    await turn();
    a3!.settle(false);
    b1!.settle(false);
    expect(await Promise.all(results)).toEqual(['failed a1', 'ok a2', 'ok a3', 'ok b1']);
    expect(log.filter((l) => l.startsWith('start a'))).toEqual(['start a1', 'start a2', 'start a3']);
    // A key's next call after all have settled starts at once.
    const again = controlled(log, 'a4');
    const fourth = run('a', again.call);
    await turn();
    expect(log.at(-1)).toBe('start a4');
    again.settle(false);
    expect(await fourth).toBe('a4');
  });
});
