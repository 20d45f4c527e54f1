//! The splitting tree of minimal separating sequences of a Mealy machine, built by partition
//! refinement in rounds (Moore's rounds, with Hopcroft's "all but the largest block" worklist):
//! round `r` splits exactly the blocks of `(r-1)`-equivalent states that are not `r`-equivalent,
//! and labels each split with a separating word of length `r`, so the word at the lowest common
//! ancestor of two leaves is a shortest separating sequence of their states (Smetsers, Moerman
//! and Jansen, "Minimal separating sequences for all pairs of states", LATA 2016).
//!
//! Work per round: only the states with a successor in a non-largest part of a block split in
//! the previous round are looked at (each state is in such a part O(log n) times), and only for
//! the inputs of those edges. The other states of their block had their successors in one
//! block before it split, and so in its largest part now: they share one key, read from any one
//! of them, and stay in the block, which keeps its id when its leaf splits (only the states
//! looked at move). The leaves at the start of a round are kept per block, not copied per
//! state. So a round costs the states it looks at, not the size of the machine: a cycle of n
//! states that needs n rounds is refined in O(n log n), not O(n²). No pair of states is ever
//! compared directly.
//!
//! Partial machines are handled by a virtual sink: an undefined transition produces a distinct
//! "undefined" output and leads to the sink, so states with different domains are separated.

use crate::model::{Interner, LabelId, Mealy, StateId};

const NONE: u32 = u32::MAX;

/// A node of the splitting tree (internal id).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Node {
    parent: u32,
    depth: u32,
    /// The separating word of an internal node: its first input and the node whose word follows
    /// (`NONE`: the word is just the input).
    sep: Option<(LabelId, u32)>,
    word_len: u32,
    children: Vec<u32>,
}

/// Dense transition table with a virtual sink for undefined transitions.
pub(crate) struct Table {
    pub(crate) n: usize,
    pub(crate) k: usize,
    pub(crate) next: Vec<u32>,
    pub(crate) out: Vec<u32>,
}

impl Table {
    pub(crate) fn new(m: &Mealy) -> Table {
        let n0 = m.num_states();
        let k = m.num_inputs();
        let partial = !m.is_complete();
        let n = n0 + usize::from(partial);
        let mut next = vec![0u32; n * k];
        let mut out = vec![NONE; n * k];
        for s in 0..n0 {
            for i in 0..k {
                let c = s * k + i;
                match m.step(StateId(s as u32), LabelId(i as u32)) {
                    Some((t, o)) => {
                        next[c] = t.0;
                        out[c] = o.0;
                    }
                    None => next[c] = n0 as u32,
                }
            }
        }
        if partial {
            for i in 0..k {
                next[n0 * k + i] = n0 as u32;
            }
        }
        Table { n, k, next, out }
    }

    #[inline]
    pub(crate) fn step(&self, s: u32, a: usize) -> (u32, u32) {
        let c = s as usize * self.k + a;
        (self.next[c], self.out[c])
    }
}

/// The splitting tree: leaves are the classes of equivalent states, every internal node carries a
/// word on which its children's states produce pairwise different outputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplittingTree {
    nodes: Vec<Node>,
    leaf_of: Vec<u32>,
    num_states: usize,
}

impl SplittingTree {
    /// Builds the tree of minimal separating sequences of `m` (complete or partial).
    pub fn new(m: &Mealy) -> SplittingTree {
        let table = Table::new(m);
        let mut b = Builder::new(&table);
        b.refine();
        let leaf_of = b.leaf_of();
        SplittingTree {
            nodes: b.nodes,
            leaf_of,
            num_states: m.num_states(),
        }
    }

    /// Number of tree nodes (leaves included).
    pub fn num_nodes(&self) -> usize {
        self.nodes.len()
    }

    /// The leaf holding state `s`.
    pub fn leaf(&self, s: StateId) -> u32 {
        self.leaf_of[s.index()]
    }

    /// Whether two states are equivalent.
    pub fn equivalent(&self, s: StateId, t: StateId) -> bool {
        self.leaf(s) == self.leaf(t)
    }

    /// The classes of equivalent states (leaves), each sorted, ordered by their smallest state.
    pub fn classes(&self) -> Vec<Vec<StateId>> {
        let mut by_leaf: Vec<Vec<StateId>> = vec![Vec::new(); self.nodes.len()];
        for s in 0..self.num_states {
            by_leaf[self.leaf_of[s] as usize].push(StateId(s as u32));
        }
        let mut classes: Vec<_> = by_leaf.into_iter().filter(|c| !c.is_empty()).collect();
        classes.sort_by_key(|c| c[0]);
        classes
    }

    /// The lowest common ancestor of two nodes.
    pub fn lca(&self, mut x: u32, mut y: u32) -> u32 {
        while self.nodes[x as usize].depth > self.nodes[y as usize].depth {
            x = self.nodes[x as usize].parent;
        }
        while self.nodes[y as usize].depth > self.nodes[x as usize].depth {
            y = self.nodes[y as usize].parent;
        }
        while x != y {
            x = self.nodes[x as usize].parent;
            y = self.nodes[y as usize].parent;
        }
        x
    }

    /// The separating word of an internal node (empty for a leaf).
    pub fn word(&self, node: u32) -> Vec<LabelId> {
        let mut w = Vec::with_capacity(self.nodes[node as usize].word_len as usize);
        let mut cur = node;
        while cur != NONE {
            match self.nodes[cur as usize].sep {
                Some((a, rest)) => {
                    w.push(a);
                    cur = rest;
                }
                None => break,
            }
        }
        w
    }

    /// Length of the separating word of a node (0 for a leaf).
    pub fn word_len(&self, node: u32) -> usize {
        self.nodes[node as usize].word_len as usize
    }

    /// Whether a node is internal.
    pub fn is_internal(&self, node: u32) -> bool {
        self.nodes[node as usize].sep.is_some()
    }

    /// The children of a node.
    pub fn children(&self, node: u32) -> &[u32] {
        &self.nodes[node as usize].children
    }

    /// The parent of a node (`None` for the root).
    pub fn parent(&self, node: u32) -> Option<u32> {
        let p = self.nodes[node as usize].parent;
        (p != NONE).then_some(p)
    }

    /// A shortest word on which `s` and `t` produce different outputs; `None` if equivalent.
    pub fn separating_word(&self, s: StateId, t: StateId) -> Option<Vec<LabelId>> {
        let (x, y) = (self.leaf(s), self.leaf(t));
        (x != y).then(|| self.word(self.lca(x, y)))
    }

    /// The internal nodes on the path from the root to the leaf of `s`, root first.
    pub fn path(&self, s: StateId) -> Vec<u32> {
        let mut p = Vec::new();
        let mut cur = self.nodes[self.leaf(s) as usize].parent;
        while cur != NONE {
            p.push(cur);
            cur = self.nodes[cur as usize].parent;
        }
        p.reverse();
        p
    }

    /// The length of the longest word at an internal node: the longest shortest separating
    /// sequence over all pairs of inequivalent states (0 if all states are equivalent).
    pub fn max_word_len(&self) -> usize {
        self.nodes
            .iter()
            .map(|n| n.word_len as usize)
            .max()
            .unwrap_or(0)
    }
}

/// The partition refinement behind [`SplittingTree::new`]. States live in blocks (the leaves of
/// the tree); a block keeps its id when its leaf splits and it keeps the part of its states
/// that were not looked at, so a split costs the states that move, not the block's size.
struct Builder<'a> {
    table: &'a Table,
    nodes: Vec<Node>,
    /// Per state: its block.
    block_of: Vec<u32>,
    /// Per state: its index in its block's member list.
    position: Vec<u32>,
    /// Per block: its states, in no particular order.
    members: Vec<Vec<u32>>,
    /// Per block: the leaf holding it now.
    node_of_block: Vec<u32>,
    /// Per node: the block of a leaf (`NONE` for an internal node).
    block_of_node: Vec<u32>,
    /// Per block: the last round in which its leaf changed or it was made, and its states' leaf
    /// at the start of that round (so the leaves at the start of a round need no copy).
    moved_in: Vec<u32>,
    leaf_at_start: Vec<u32>,
    round: u32,
    /// Per state: the stamp of the split that last marked it.
    mark: Vec<u32>,
    stamp: u32,
    /// Predecessors of each state as `(source, input)`, CSR.
    pred_off: Vec<u32>,
    pred: Vec<(u32, u32)>,
}

impl<'a> Builder<'a> {
    fn new(table: &'a Table) -> Self {
        let n = table.n;
        let mut count = vec![0u32; n + 1];
        for &t in &table.next {
            count[t as usize + 1] += 1;
        }
        for s in 0..n {
            count[s + 1] += count[s];
        }
        let mut pred = vec![(0u32, 0u32); table.next.len()];
        let mut fill = count.clone();
        for (c, &t) in table.next.iter().enumerate() {
            let slot = &mut fill[t as usize];
            pred[*slot as usize] = ((c / table.k) as u32, (c % table.k) as u32);
            *slot += 1;
        }
        Builder {
            table,
            nodes: vec![Node {
                parent: NONE,
                depth: 0,
                sep: None,
                word_len: 0,
                children: Vec::new(),
            }],
            block_of: vec![0; n],
            position: (0..n as u32).collect(),
            members: vec![(0..n as u32).collect()],
            node_of_block: vec![0],
            block_of_node: vec![0],
            moved_in: vec![NONE],
            leaf_at_start: vec![0],
            round: 0,
            mark: vec![0; n],
            stamp: 0,
            pred_off: count,
            pred,
        }
    }

    /// The leaf that held `s` at the start of the current round.
    fn leaf_at_round_start(&self, s: u32) -> u32 {
        let b = self.block_of[s as usize] as usize;
        if self.moved_in[b] == self.round {
            self.leaf_at_start[b]
        } else {
            self.node_of_block[b]
        }
    }

    /// The number of states in the leaf `leaf`.
    fn leaf_size(&self, leaf: u32) -> usize {
        match self.block_of_node[leaf as usize] {
            NONE => 0,
            b => self.members[b as usize].len(),
        }
    }

    /// Splits leaf `leaf` under separating word `(a, rest)` into one child per group, in order:
    /// the states of `groups[k]` move to a new block for every `k` but `kept`, whose child gets
    /// the leaf's block with the states that did not move. Returns the children.
    fn split(
        &mut self,
        leaf: u32,
        groups: &[Vec<u32>],
        kept: usize,
        a: LabelId,
        rest: u32,
    ) -> Vec<u32> {
        let word_len = 1 + if rest == NONE {
            0
        } else {
            self.nodes[rest as usize].word_len
        };
        let depth = self.nodes[leaf as usize].depth + 1;
        let block = self.block_of_node[leaf as usize];
        let start = if self.moved_in[block as usize] == self.round {
            self.leaf_at_start[block as usize]
        } else {
            leaf
        };
        let mut created = Vec::with_capacity(groups.len());
        for (k, g) in groups.iter().enumerate() {
            let id = self.nodes.len() as u32;
            self.nodes.push(Node {
                parent: leaf,
                depth,
                sep: None,
                word_len: 0,
                children: Vec::new(),
            });
            let b = if k == kept {
                block
            } else {
                let b = self.members.len() as u32;
                for &s in g {
                    self.remove_from_block(s);
                    self.block_of[s as usize] = b;
                }
                self.members.push(g.clone());
                for (i, &s) in g.iter().enumerate() {
                    self.position[s as usize] = i as u32;
                }
                self.node_of_block.push(id);
                self.moved_in.push(NONE);
                self.leaf_at_start.push(start);
                b
            };
            self.node_of_block[b as usize] = id;
            self.moved_in[b as usize] = self.round;
            self.leaf_at_start[b as usize] = start;
            self.block_of_node.push(b);
            created.push(id);
        }
        self.block_of_node[leaf as usize] = NONE;
        let node = &mut self.nodes[leaf as usize];
        node.sep = Some((a, rest));
        node.word_len = word_len;
        node.children = created.clone();
        created
    }

    /// Takes `s` out of its block's member list (its block id is left to the caller).
    fn remove_from_block(&mut self, s: u32) {
        let b = self.block_of[s as usize] as usize;
        let i = self.position[s as usize] as usize;
        self.members[b].swap_remove(i);
        if let Some(&moved) = self.members[b].get(i) {
            self.position[moved as usize] = i as u32;
        }
    }

    fn leaves_under(&self, root: u32, out: &mut Vec<u32>) {
        out.clear();
        let mut stack = vec![root];
        while let Some(x) = stack.pop() {
            let ch = &self.nodes[x as usize].children;
            if ch.is_empty() {
                out.push(x);
            } else {
                stack.extend(ch.iter().rev());
            }
        }
    }

    fn lca(&self, mut x: u32, mut y: u32) -> u32 {
        let d = |v: u32| self.nodes[v as usize].depth;
        while d(x) > d(y) {
            x = self.nodes[x as usize].parent;
        }
        while d(y) > d(x) {
            y = self.nodes[y as usize].parent;
        }
        while x != y {
            x = self.nodes[x as usize].parent;
            y = self.nodes[y as usize].parent;
        }
        x
    }

    /// Splits `piece` (and, recursively, its new parts) by input `a` according to the leaves of
    /// the successors at the start of the round, mirroring the structure of the tree above them.
    /// Only the states of `marked` (those whose `a`-successor moved out of the largest part of
    /// its leaf last round) are looked at: the others' successors all share one leaf, found
    /// from any one of them.
    fn induced_split(&mut self, piece: u32, a: usize, marked: Vec<u32>) {
        let key = |b: &Self, s: u32| b.leaf_at_round_start(b.table.step(s, a).0);
        let mut stack = vec![(piece, marked)];
        while let Some((leaf, marked)) = stack.pop() {
            let block = self.block_of_node[leaf as usize] as usize;
            if self.members[block].len() < 2 || marked.is_empty() {
                continue;
            }
            self.stamp += 1;
            for &s in &marked {
                self.mark[s as usize] = self.stamp;
            }
            let unmarked_key = (marked.len() < self.members[block].len()).then(|| {
                let other = self.members[block]
                    .iter()
                    .copied()
                    .find(|&s| self.mark[s as usize] != self.stamp)
                    .expect("a block with more states than marked has an unmarked one");
                key(self, other)
            });
            let mut keys: Vec<u32> = marked.iter().map(|&s| key(self, s)).collect();
            keys.extend(unmarked_key);
            keys.sort_unstable();
            keys.dedup();
            if keys.len() < 2 {
                continue;
            }
            let top = keys.iter().skip(1).fold(keys[0], |l, &x| self.lca(l, x));
            let top_children = &self.nodes[top as usize].children;
            let child_pos = |key: u32| -> usize {
                let mut x = key;
                while self.nodes[x as usize].parent != top {
                    x = self.nodes[x as usize].parent;
                }
                top_children
                    .iter()
                    .position(|&c| c == x)
                    .expect("a key lies below the lowest common ancestor")
            };
            let positions: std::collections::HashMap<u32, usize> =
                keys.iter().map(|&k| (k, child_pos(k))).collect();
            let mut groups: Vec<Vec<u32>> = vec![Vec::new(); top_children.len()];
            for &s in &marked {
                groups[positions[&key(self, s)]].push(s);
            }
            let kept_pos = match unmarked_key {
                Some(k) => positions[&k],
                None => (0..groups.len())
                    .max_by_key(|&p| (groups[p].len(), std::cmp::Reverse(p)))
                    .expect("a split has groups"),
            };
            let used: Vec<usize> = (0..groups.len())
                .filter(|&p| p == kept_pos || !groups[p].is_empty())
                .collect();
            let kept = used
                .iter()
                .position(|&p| p == kept_pos)
                .expect("the kept group is used");
            let groups: Vec<Vec<u32>> = used
                .into_iter()
                .map(|p| std::mem::take(&mut groups[p]))
                .collect();
            let created = self.split(leaf, &groups, kept, LabelId(a as u32), top);
            stack.extend(created.into_iter().zip(groups).rev());
        }
    }

    /// States in all but the largest leaf under each of `split_roots`.
    fn smaller_parts(&self, split_roots: &[u32]) -> Vec<u32> {
        let mut dirty = Vec::new();
        let mut leaves = Vec::new();
        for &p in split_roots {
            self.leaves_under(p, &mut leaves);
            let largest = leaves
                .iter()
                .copied()
                .max_by_key(|&l| (self.leaf_size(l), std::cmp::Reverse(l)))
                .expect("a split node has leaves");
            for &l in &leaves {
                if l != largest {
                    let b = self.block_of_node[l as usize] as usize;
                    dirty.extend_from_slice(&self.members[b]);
                }
            }
        }
        dirty
    }

    fn refine(&mut self) {
        let k = self.table.k;
        // Round 1: split by outputs, one input after another.
        for a in 0..k {
            let leaves: Vec<u32> = (0..self.nodes.len() as u32)
                .filter(|&x| self.leaf_size(x) > 1)
                .collect();
            for leaf in leaves {
                let mems = &self.members[self.block_of_node[leaf as usize] as usize];
                let mut outs: Vec<u32> = mems.iter().map(|&s| self.table.step(s, a).1).collect();
                outs.sort_unstable();
                outs.dedup();
                if outs.len() < 2 {
                    continue;
                }
                let mut groups = vec![Vec::new(); outs.len()];
                for &s in mems {
                    let o = self.table.step(s, a).1;
                    let pos = outs.binary_search(&o).expect("output seen above");
                    groups[pos].push(s);
                }
                let kept = (0..groups.len())
                    .max_by_key(|&p| (groups[p].len(), std::cmp::Reverse(p)))
                    .expect("a split has groups");
                self.split(leaf, &groups, kept, LabelId(a as u32), NONE);
            }
        }
        let mut split_roots: Vec<u32> = if self.nodes.len() > 1 {
            vec![0]
        } else {
            vec![]
        };
        while !split_roots.is_empty() {
            let dirty = self.smaller_parts(&split_roots);
            self.round += 1;
            // (leaf at the start of the round, input, state) for every state whose successor
            // on the input is dirty, in a leaf that can split.
            let mut marked: Vec<(u32, u32, u32)> = Vec::new();
            for &t in &dirty {
                let (lo, hi) = (self.pred_off[t as usize], self.pred_off[t as usize + 1]);
                for &(s, a) in &self.pred[lo as usize..hi as usize] {
                    let b = self.leaf_at_round_start(s);
                    if self.leaf_size(b) > 1 {
                        marked.push((b, a, s));
                    }
                }
            }
            marked.sort_unstable();
            marked.dedup();
            let mut next_roots = Vec::new();
            let mut pieces = Vec::new();
            let mut by_piece: Vec<(u32, u32)> = Vec::new();
            for run in marked.chunk_by(|x, y| (x.0, x.1) == (y.0, y.1)) {
                let (b, a) = (run[0].0, run[0].1);
                // The states of this leaf and input, by the leaf holding them now.
                by_piece.clear();
                by_piece.extend(
                    run.iter().map(|&(_, _, s)| {
                        (self.node_of_block[self.block_of[s as usize] as usize], s)
                    }),
                );
                by_piece.sort_unstable();
                self.leaves_under(b, &mut pieces);
                for &piece in &pieces {
                    let from = by_piece.partition_point(|&(p, _)| p < piece);
                    let to = by_piece.partition_point(|&(p, _)| p <= piece);
                    let states: Vec<u32> = by_piece[from..to].iter().map(|&(_, s)| s).collect();
                    self.induced_split(piece, a as usize, states);
                }
                if !self.nodes[b as usize].children.is_empty() && next_roots.last() != Some(&b) {
                    next_roots.push(b);
                }
            }
            split_roots = next_roots;
        }
    }

    /// Per state: the leaf holding it.
    fn leaf_of(&self) -> Vec<u32> {
        self.block_of
            .iter()
            .map(|&b| self.node_of_block[b as usize])
            .collect()
    }
}

/// The minimal Mealy machine equivalent to the reachable part of `m`: states are the classes of
/// equivalent reachable states, numbered in breadth-first order (inputs in id order) from the
/// initial state and named after their first-reached member.
pub fn minimize_mealy(m: &Mealy) -> Mealy {
    minimize_mealy_with_tree(m).0
}

/// [`minimize_mealy`], with the splitting tree of the minimal machine ([`SplittingTree::new`]
/// of it) when it costs nothing: when `m` is complete and already minimal and reachable.
/// Otherwise the caller builds it when it needs it (not here, where the model's tree and the
/// minimal machine's would be held at once).
///
/// When `m` is minimal, the minimal machine is `m` with its states renumbered by a bijection
/// `π`, and its tree is `m`'s with each leaf's state renamed by `π`: same nodes, in the same
/// order, with the same words and children. The refinement (`Builder`) reads state numbers
/// only to tell states apart and to order the states within a group: every choice that shapes
/// the tree (which leaves split, by which input, into which groups in which order, which group
/// keeps its block) is made from outputs, input numbers, node numbers and group sizes, all of
/// which `π` preserves. The one exception is the state a split reads its unmarked key from, the
/// first unmarked member in the block's list; every unmarked member has the same key, so that
/// choice does not matter either. `the_minimal_machine_has_the_tree_of_the_model_renamed`
/// checks this on shuffled machines.
pub fn minimize_mealy_with_tree(m: &Mealy) -> (Mealy, Option<SplittingTree>) {
    let tree = SplittingTree::new(m);
    let n = m.num_states();
    let mut class_id = vec![NONE; tree.num_nodes()];
    let mut reps: Vec<StateId> = Vec::new();
    let mut seen = vec![false; n];
    let mut queue = std::collections::VecDeque::new();
    seen[m.initial().index()] = true;
    queue.push_back(m.initial());
    while let Some(s) = queue.pop_front() {
        let leaf = tree.leaf(s) as usize;
        if class_id[leaf] == NONE {
            class_id[leaf] = reps.len() as u32;
            reps.push(s);
        }
        for i in m.input_ids() {
            if let Some((t, _)) = m.step(s, i)
                && !seen[t.index()]
            {
                seen[t.index()] = true;
                queue.push_back(t);
            }
        }
    }
    let mut quads = Vec::new();
    for (c, &r) in reps.iter().enumerate() {
        for i in m.input_ids() {
            if let Some((t, o)) = m.step(r, i) {
                let target = class_id[tree.leaf(t) as usize];
                quads.push((StateId(c as u32), i, o, StateId(target)));
            }
        }
    }
    let names = reps.iter().map(|&r| m.state_name(r).to_owned()).collect();
    let inputs: Interner = m.inputs.clone();
    let outputs: Interner = m.outputs.clone();
    let min = Mealy::new(m.name.clone(), inputs, outputs, names, StateId(0), &quads)
        .expect("the quotient of a valid machine is valid");
    let tree = (m.is_complete() && reps.len() == n).then(|| {
        // State `c` of `min` is state `reps[c]` of `m`.
        let leaf_of = reps.iter().map(|&r| tree.leaf_of[r.index()]).collect();
        SplittingTree { leaf_of, ..tree }
    });
    (min, tree)
}

/// The longest shortest separating sequence over all pairs of inequivalent reachable states of
/// `m` (0 if there is at most one class).
pub fn longest_shortest_separating(m: &Mealy) -> usize {
    let (min, tree) = minimize_mealy_with_tree(m);
    tree.unwrap_or_else(|| SplittingTree::new(&min))
        .max_word_len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identify::mealy::tests_support::random_mealy;
    use crate::model::mealy_from_named;

    /// The tree [`minimize_mealy_with_tree`] returns, the model's renamed, is the one built from
    /// the minimal machine (a random machine numbers its states in no particular order, so the
    /// renaming is not the identity); it returns one exactly when the model was minimal.
    #[test]
    fn the_minimal_machine_has_the_tree_of_the_model_renamed() {
        let mut renamed = 0;
        for seed in 0..120 {
            let n = 5 + (seed as usize * 7) % 80;
            let m = random_mealy(seed, n, 2 + seed as usize % 3, 2 + seed as usize % 2);
            let (min, tree) = minimize_mealy_with_tree(&m);
            assert_eq!(
                tree.is_some(),
                min.num_states() == m.num_states(),
                "seed {seed}"
            );
            if let Some(tree) = tree {
                assert_eq!(tree, SplittingTree::new(&min), "seed {seed}");
                renamed += 1;
                let moved = (0..n).filter(|&s| {
                    min.state_name(StateId(s as u32)) != m.state_name(StateId(s as u32))
                });
                assert!(moved.count() > 0, "seed {seed}: numbered alike");
            }
        }
        // Both ways are taken, the renaming about a third of the time.
        assert!((20..100).contains(&renamed), "{renamed} of 120 renamed");
    }

    /// Brute force: the length of a shortest separating word of `s` and `t`, by BFS over pairs.
    fn shortest_sep_len(m: &Mealy, s: StateId, t: StateId) -> Option<usize> {
        let mut seen = std::collections::HashSet::new();
        let mut frontier = vec![(s, t)];
        seen.insert((s, t));
        let mut len = 0;
        while !frontier.is_empty() {
            len += 1;
            let mut next = Vec::new();
            for &(x, y) in &frontier {
                for i in m.input_ids() {
                    let (x2, ox) = m.step(x, i).unwrap();
                    let (y2, oy) = m.step(y, i).unwrap();
                    if ox != oy {
                        return Some(len);
                    }
                    if seen.insert((x2, y2)) {
                        next.push((x2, y2));
                    }
                }
            }
            frontier = next;
        }
        None
    }

    #[test]
    fn lca_words_are_shortest_separating_sequences() {
        for seed in 1..40u64 {
            let m = random_mealy(seed, 3 + (seed as usize % 9), 2 + (seed as usize % 2), 2);
            let tree = SplittingTree::new(&m);
            for s in m.states() {
                for t in m.states() {
                    let brute = shortest_sep_len(&m, s, t);
                    let w = tree.separating_word(s, t);
                    assert_eq!(w.as_ref().map(Vec::len), brute, "seed {seed} {s} {t}");
                    if let Some(w) = w {
                        assert_ne!(m.run(s, &w), m.run(t, &w));
                    }
                }
            }
        }
    }

    #[test]
    fn minimisation_merges_equivalent_states() {
        // s0 and s2 are equivalent copies; s3 is unreachable.
        let m = mealy_from_named(
            "m",
            4,
            &[
                (0, "a", "x", 1),
                (0, "b", "y", 0),
                (1, "a", "y", 2),
                (1, "b", "y", 1),
                (2, "a", "x", 1),
                (2, "b", "y", 2),
                (3, "a", "z", 3),
                (3, "b", "z", 3),
            ],
        )
        .unwrap();
        let min = minimize_mealy(&m);
        assert_eq!(min.num_states(), 2);
        assert_eq!(min.state_names(), ["s0", "s1"]);
        assert_eq!(longest_shortest_separating(&m), 1);
    }

    #[test]
    fn partial_machines_separate_by_domain() {
        let m = mealy_from_named(
            "m",
            2,
            &[(0, "a", "x", 1), (1, "a", "x", 0), (0, "b", "x", 0)],
        )
        .unwrap();
        let tree = SplittingTree::new(&m);
        assert!(!tree.equivalent(StateId(0), StateId(1)));
        assert_eq!(minimize_mealy(&m).num_states(), 2);
    }
}
