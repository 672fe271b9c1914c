import type { Message } from '@ctxhost/core';

/** A summary node: a leaf covers messages, a parent covers nodes. Every original stays reachable. */
export interface SummaryNode {
  id: string;
  level: number;
  /** Message ids (leaf) or node ids (parent), oldest first. */
  covers: string[];
  summary: string;
}

/** One session's DAG of summaries, and the messages its leaves cover, verbatim. */
export interface SummaryDag {
  nodes: Map<string, SummaryNode>;
  originals: Map<string, Message>;
  nextId: number;
}

export function createSummaryDag(): SummaryDag {
  return { nodes: new Map(), originals: new Map(), nextId: 1 };
}

export function addNode(dag: SummaryDag, level: number, covers: string[], summary: string): SummaryNode {
  const node = { id: `lcm-${dag.nextId++}`, level, covers, summary };
  dag.nodes.set(node.id, node);
  return node;
}

/** The original messages under a node, oldest first (parents expand through their children). */
export function expandNode(dag: SummaryDag, nodeId: string): Message[] {
  const node = dag.nodes.get(nodeId);
  if (node === undefined) return [];
  const messages: Message[] = [];
  for (const id of node.covers) {
    if (dag.nodes.has(id)) messages.push(...expandNode(dag, id));
    else {
      const original = dag.originals.get(id);
      if (original !== undefined) messages.push(original);
    }
  }
  return messages;
}

/** The top-level node that covers a message (for grep results), if any. */
export function coveringNodes(dag: SummaryDag): Map<string, string> {
  const covering = new Map<string, string>();
  const walk = (nodeId: string, top: string) => {
    for (const id of dag.nodes.get(nodeId)?.covers ?? []) {
      if (dag.nodes.has(id)) walk(id, top);
      else covering.set(id, top);
    }
  };
  const children = new Set([...dag.nodes.values()].flatMap((node) => node.covers));
  for (const node of dag.nodes.values()) if (!children.has(node.id)) walk(node.id, node.id);
  return covering;
}
