// The module graph of docs/architecture.md is rendered from the edges and replaces only what lies
// between its markers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { END, START, renderGraph, withGraph } from './module-graph.mjs';

test('one sorted line per importing module, then the modules that import none', () => {
  const graph = renderGraph(
    ['users', 'charges', 'ledger', 'events'],
    [
      ['charges', 'ledger'],
      ['charges', 'events'],
      ['charges', 'ledger'],
      ['users', 'ledger'],
    ],
  );
  assert.equal(graph, ['```', '  charges ──► events, ledger', '  users   ──► ledger', '  events, ledger: platform only', '```'].join('\n'));
});

test('an edge added in the code changes the graph', () => {
  const before = renderGraph(['a', 'b'], []);
  const after = renderGraph(['a', 'b'], [['a', 'b']]);
  assert.notEqual(before, after);
});

test('the graph replaces what lies between the markers, and nothing else', () => {
  const doc = `# T\n\nbefore\n${START}\nold graph\n${END}\nafter\n`;
  assert.equal(withGraph(doc, 'new'), `# T\n\nbefore\n${START}\nnew\n${END}\nafter\n`);
  assert.equal(withGraph(withGraph(doc, 'new'), 'new'), withGraph(doc, 'new'));
});

test('a document without the markers is an error, not a silent pass', () => {
  assert.throws(() => withGraph('# T\n', 'new'), /markers/);
});
