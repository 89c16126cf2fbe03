import { describe, expect, it } from 'vitest';
import { assignToolNames, serverPrefix, sharedNames, TOOL_NAME_PATTERN, type NamedTool } from './tool-names.ts';

const tool = (serverId: string, prefix: string, toolName: string): NamedTool => ({ serverId, prefix, toolName });

describe('MCP tool names for the model', () => {
  it('is the server prefix and the tool name, every character outside the pattern replaced', () => {
    const names = assignToolNames([tool('s1', 'everything', 'echo'), tool('s1', 'everything', 'get-sum'), tool('s1', 'everything', 'files/read.v2')]);
    expect([...names.keys()]).toEqual(['everything__echo', 'everything__get-sum', 'everything__files_read_v2']);
    expect(names.get('everything__files_read_v2')?.toolName).toBe('files/read.v2');
  });

  it('point 16: names neither of two tools of one server that map to one name, whatever the order they were listed in', () => {
    const a = tool('s1', 'x', 'a.b');
    const b = tool('s1', 'x', 'a_b');
    const other = tool('s1', 'x', 'c');
    for (const order of [[a, b, other], [b, other, a]]) expect([...assignToolNames(order).entries()]).toEqual([['x__c', other]]);
    expect([...sharedNames([a, b, other])]).toEqual([['x__a_b', [a, b]]]);
  });

  it('gives two tools of different servers that would share a name a hash each, whatever the order', () => {
    const a = tool('s1', 'x', 'a.b');
    const b = tool('s2', 'x', 'a_b');
    const forward = assignToolNames([a, b]);
    const backward = assignToolNames([b, a]);
    expect(forward.size).toBe(2);
    expect([...forward.keys()].sort()).toEqual([...backward.keys()].sort());
    for (const name of forward.keys()) expect(name).toMatch(/^x__a_b_[0-9a-f]{8}$/);
    expect(new Set([...forward.values()].map((t) => t.toolName))).toEqual(new Set(['a.b', 'a_b']));
  });

  it('cuts long names to 64 characters with a hash, so two long names sharing a start stay apart', () => {
    const long = 'a'.repeat(80);
    const names = [...assignToolNames([tool('s1', 'server', `${long}-one`), tool('s1', 'server', `${long}-two`)]).keys()];
    expect(names).toHaveLength(2);
    expect(new Set(names).size).toBe(2);
    for (const name of names) expect(name).toMatch(TOOL_NAME_PATTERN);
  });

  it('never takes the name of one of the app’s own tools', () => {
    const names = assignToolNames([tool('s1', 'save', 'note')], new Set(['save__note']));
    expect([...names.keys()][0]).toMatch(/^save__note_[0-9a-f]{8}$/);
  });

  it('always matches the OpenAI function-name pattern, whatever the server names its tools', () => {
    const weird = ['', ' ', '💥', 'ünïcödé', 'a'.repeat(200), '../../etc', 'constructor', '__proto__'];
    for (const name of assignToolNames(weird.map((w, i) => tool('s', `p${i}`, w))).keys()) expect(name).toMatch(TOOL_NAME_PATTERN);
  });

  it('derives a unique prefix from the name or the host', () => {
    expect(serverPrefix(null, 'http://localhost:18600/mcp', new Set())).toBe('localhost');
    expect(serverPrefix('My GitHub!', 'https://api.example.com/mcp', new Set())).toBe('my_github');
    expect(serverPrefix(null, 'https://www.mcp.linear.app/sse', new Set(['mcp']))).toBe('mcp2');
    expect(serverPrefix('🙂', 'https://x.example/', new Set())).toBe('mcp');
  });
});
