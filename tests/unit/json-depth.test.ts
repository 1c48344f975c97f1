import { describe, expect, it } from 'vitest';
import { jsonNestedDeeperThan } from '../../server/services/json-depth';

const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const objects = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

describe('jsonNestedDeeperThan', () => {
  it('counts nested arrays and objects, mixed', () => {
    expect(jsonNestedDeeperThan('1', 0)).toBe(false);
    expect(jsonNestedDeeperThan('[]', 0)).toBe(true);
    expect(jsonNestedDeeperThan('[]', 1)).toBe(false);
    expect(jsonNestedDeeperThan('{"a":[{"b":[]}]}', 4)).toBe(false);
    expect(jsonNestedDeeperThan('{"a":[{"b":[]}]}', 3)).toBe(true);
    expect(jsonNestedDeeperThan(arrays(64), 64)).toBe(false);
    expect(jsonNestedDeeperThan(arrays(65), 64)).toBe(true);
    expect(jsonNestedDeeperThan(objects(64), 64)).toBe(false);
    expect(jsonNestedDeeperThan(objects(65), 64)).toBe(true);
  });

  it('measures depth, not the number of brackets: siblings do not add up', () => {
    expect(jsonNestedDeeperThan(`[${Array.from({ length: 10_000 }, () => '[[]]').join(',')}]`, 3)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes and backslashes included', () => {
    expect(jsonNestedDeeperThan(JSON.stringify({ a: '[[[[{{{{' }), 1)).toBe(false);
    expect(jsonNestedDeeperThan(JSON.stringify(['"[[[[', '\\', '[[[\\"{{{']), 1)).toBe(false);
    expect(jsonNestedDeeperThan(String.raw`["\\", [[]]]`, 2)).toBe(true);
    expect(jsonNestedDeeperThan(String.raw`["\"", [[]]]`, 2)).toBe(true);
  });

  it('scans 10,000 and 1,000,000 levels without recursion', () => {
    expect(jsonNestedDeeperThan(arrays(10_000), 64)).toBe(true);
    expect(jsonNestedDeeperThan(objects(5_000), 64)).toBe(true);
    expect(jsonNestedDeeperThan(`${'['.repeat(1_000_000)}`, 999_999)).toBe(true);
    expect(jsonNestedDeeperThan(arrays(1_000_000), 1_000_000)).toBe(false);
  });
});
