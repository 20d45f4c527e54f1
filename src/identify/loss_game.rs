//! The game behind forced losses ([`super::forced`]): positions are the origins still sharing
//! the observation so far, grouped by current state; the tester stops, applies an input or waits
//! for an output, and the value of a position is the family of least sets of lost pairs some
//! finite strategy achieves (a worklist from "stop everywhere"). Also the weighted variant, where
//! waiting costs the sum over its branches, and the explored game whose strategies the repair of
//! an ADG follows ([`super::repair`]). The module documentation of [`super::forced`] gives the
//! definitions and why the values bound every ADG.

use crate::analysis::Compatibility;
use crate::fast_hash::FastBuild;
use crate::model::{LabelId, StateId, SuspensionAutomaton};
use indexmap::map::Entry;
use indexmap::{IndexMap, IndexSet};

/// Most origins one game tracks (their pairs are the bits of a `u128`).
pub const MAX_ORIGINS: usize = 16;

/// Positions one game may explore before it gives up (and then contributes nothing).
pub const GAME_POSITIONS: usize = 2_000;

/// Steps of the cheap search for a strategy losing nothing, tried before a full game.
const QUICK_DEPTH: usize = 4;

/// A set of pairs of origins, one bit per unordered pair.
pub(crate) type Pairs = u128;

pub(crate) fn pair_bit(i: usize, j: usize) -> Pairs {
    let (i, j) = (i.min(j), i.max(j));
    1u128 << (j * (j - 1) / 2 + i)
}

/// A set of origins of a game, one bit per origin.
type Mask = u128;

/// Most origins a game may have at all (the bits of a [`Mask`]); [`forced_losses`] uses at most
/// [`MAX_ORIGINS`], whose pairs all fit the bits of [`Pairs`].
pub(crate) const MAX_GAME_ORIGINS: usize = 128;

/// Origins (a bit mask over the origins of the game) that share the observation so far and are
/// all in one state.
type Group = (Mask, StateId);

/// Groups sorted by state.
type Position = Vec<Group>;

/// Explored positions in the order found: a position's number is its place, so each is stored
/// once. Games intern positions by the hundred thousand; with SipHash, hashing and probing took
/// about a fifth of `distinguish`'s time on TCP_Linux_Server merge 4,5 (`perf record`), so the
/// set hashes with [`FastBuild`]. The hash decides only lookups, never the order.
type PositionSet = IndexSet<Position, FastBuild>;

/// Pairs lost, or `None` where a forbidden pair would be lost (see [`Game::pair`]).
type Lost = Option<Pairs>;

/// What the tester may do in a position.
enum Moves {
    /// At most two groups: the value is known.
    Decided(Lost),
    /// Stop (losing `leaf`), an input (losing the stuck pairs, then a successor), or waiting for
    /// an output (one successor per output). Moves losing a forbidden pair are left out.
    Open {
        leaf: Lost,
        inputs: Vec<(LabelId, Pairs, usize)>,
        outputs: Vec<(LabelId, usize)>,
    },
}

/// The game of one set of origins (see the module documentation).
struct Game<'a> {
    sa: &'a SuspensionAutomaton,
    compat: &'a Compatibility,
    /// The representative of each state's behaviour class: current states are replaced by it,
    /// so an automaton as built has the positions of its quotient.
    representative: &'a [StateId],
    /// Number of origins.
    origins: usize,
    /// Per ordered pair of origins `(i, j)` at `i * origins + j`: the bit of the pair when it
    /// counts, 0 when it does not (compatible origins), `None` when losing it is forbidden (the
    /// game then only considers strategies that keep it).
    pair: Vec<Lost>,
}

impl Game<'_> {
    fn members(mask: Mask) -> impl Iterator<Item = usize> {
        let mut rest = mask;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                i
            })
        })
    }

    /// Counted pairs with one origin in `a` and the other in `b` (`a` and `b` may overlap).
    fn between(&self, a: Mask, b: Mask) -> Lost {
        let mut out = 0;
        for i in Self::members(a) {
            for j in Self::members(b).filter(|&j| j != i) {
                out |= self.pair[i * self.origins + j]?;
            }
        }
        Some(out)
    }

    fn within(&self, m: Mask) -> Lost {
        self.between(m, m)
    }

    fn mask(p: &Position) -> Mask {
        p.iter().fold(0, |m, g| m | g.0)
    }

    /// Whether some group of `p` holds origins whose pair may not be lost: then every strategy
    /// from `p` loses it.
    fn doomed(&self, p: &Position) -> bool {
        p.iter().any(|g| self.within(g.0).is_none())
    }

    /// The groups enabling `l`, moved and merged, and the mask of the others.
    fn step(&self, p: &Position, l: LabelId) -> (Mask, Position) {
        let mut stuck: Mask = 0;
        let mut moved: Position = Vec::with_capacity(p.len());
        for &(m, q) in p {
            match self.sa.after(q, l) {
                Some(t) => moved.push((m, self.representative[t.index()])),
                None => stuck |= m,
            }
        }
        moved.sort_unstable_by_key(|g| g.1);
        let mut merged: Position = Vec::with_capacity(moved.len());
        for (m, t) in moved {
            match merged.last_mut() {
                Some(last) if last.1 == t => last.0 |= m,
                _ => merged.push((m, t)),
            }
        }
        (stuck, merged)
    }

    fn decided(&self, p: &Position) -> Option<Lost> {
        let both = |a: Lost, b: Lost| Some(a? | b?);
        match p.as_slice() {
            [] => Some(Some(0)),
            [(m, _)] => Some(self.within(*m)),
            [(m, q), (n, r)] if self.compat.compatible(*q, *r) => Some(self.within(m | n)),
            [(m, _), (n, _)] => Some(both(self.within(*m), self.within(*n))),
            _ => None,
        }
    }

    /// Whether some strategy of at most `depth` steps loses no pair from `p`: a cheap test that
    /// settles most sets before the full game is built.
    fn separates_within(&self, p: &Position, depth: usize) -> bool {
        if p.iter().any(|g| self.within(g.0) != Some(0)) {
            return false;
        }
        if let Some(v) = self.decided(p) {
            return v == Some(0);
        }
        if depth == 0 {
            return false;
        }
        let all = Self::mask(p);
        let labels = self.labels(p);
        let inputs = labels.iter().filter(|&&l| self.sa.alphabet.is_input(l));
        for &a in inputs {
            let (stuck, next) = self.step(p, a);
            if self.between(stuck, all) == Some(0) && self.separates_within(&next, depth - 1) {
                return true;
            }
        }
        let mut outputs = labels.iter().filter(|&&l| self.sa.alphabet.is_output(l));
        outputs.all(|&x| self.separates_within(&self.step(p, x).1, depth - 1))
    }

    /// The labels some state of `p` enables, each once, in label order.
    fn labels(&self, p: &Position) -> Vec<LabelId> {
        let mut labels: Vec<LabelId> = p
            .iter()
            .flat_map(|&(_, q)| self.sa.enabled(q).iter().map(|e| e.0))
            .collect();
        labels.sort_unstable();
        labels.dedup();
        labels
    }

    /// The moves of the positions reachable from `start`, by position in the order found
    /// (position 0 is `start`), and whether the exploration was cut. Moves losing a forbidden
    /// pair, or leading to a position some group of which holds one, are left out (such
    /// positions are not explored). Beyond `limit` positions, `None` with [`Beyond::GiveUp`];
    /// with [`Beyond::Stop`] the positions found so far and not yet expanded keep only their
    /// stopping move (see [`Beyond`]).
    fn explore(&self, start: Position, limit: usize, beyond: Beyond) -> Option<(Vec<Moves>, bool)> {
        let mut positions = PositionSet::default();
        positions.insert(start);
        let mut moves: Vec<Moves> = Vec::new();
        let mut cut = false;
        let mut k = 0;
        while k < positions.len() {
            let p = positions
                .get_index(k)
                .expect("k is below the length")
                .clone();
            k += 1;
            if let Some(v) = self.decided(&p) {
                moves.push(Moves::Decided(v));
                continue;
            }
            let all = Self::mask(&p);
            if cut {
                moves.push(Moves::Open {
                    leaf: self.within(all),
                    inputs: Vec::new(),
                    outputs: Vec::new(),
                });
                continue;
            }
            let mut intern = |q: Position| positions.insert_full(q).0;
            let labels = self.labels(&p);
            let (mut inputs, mut outputs) = (Vec::new(), Vec::new());
            let mut can_wait = true;
            let mut waits = Vec::new();
            for l in labels {
                let (stuck, next) = self.step(&p, l);
                if self.sa.alphabet.is_input(l) {
                    if let Some(lost) = self.between(stuck, all)
                        && !self.doomed(&next)
                    {
                        inputs.push((l, lost, intern(next)));
                    }
                } else if self.sa.alphabet.is_output(l) {
                    can_wait &= !self.doomed(&next);
                    waits.push((l, next));
                }
            }
            if can_wait {
                for (l, next) in waits {
                    outputs.push((l, intern(next)));
                }
            }
            moves.push(Moves::Open {
                leaf: self.within(all),
                inputs,
                outputs,
            });
            if positions.len() > limit {
                match beyond {
                    Beyond::GiveUp => return None,
                    Beyond::Stop => cut = true,
                }
            }
        }
        Some((moves, cut))
    }
}

/// What the exploration of a game does beyond its position limit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Beyond {
    /// Give up: the game has no result.
    GiveUp,
    /// Stop expanding: the positions found and not yet expanded become *frontier* positions
    /// whose only move is to stop (positions of at most two groups keep their decided value,
    /// which is reached by settling the two groups pairwise, as everywhere). The cut game is the
    /// full game with the strategies that go beyond the frontier left out: every strategy of
    /// the cut game is one of the full game, losing the same pairs, so every set its families
    /// hold is lost by some strategy of the full game, and every strategy drawn from it
    /// ([`ExploredGame::strategy`]) is a valid one. What is lost is optimality: a family may
    /// miss the lighter sets only strategies beyond the frontier reach.
    Stop,
}

/// The least families of lost pairs of every position of a game (the least fixed point of the
/// module documentation), keeping only sets inside `allowed` and at most `cap` sets per family
/// (the first in (size, bits) order). Every kept set is lost by some finite strategy; an empty
/// family means no strategy keeps its losses inside `allowed`. With `allowed` all pairs and no
/// cap, the families are exact.
fn least_families(moves: &[Moves], allowed: Pairs, cap: usize) -> Vec<Vec<Pairs>> {
    let fits = |s: &Pairs| s & !allowed == 0;
    let bounded = |family: Vec<Pairs>| {
        let mut family = least(family.into_iter().filter(fits).collect());
        family.truncate(cap);
        family
    };
    let mut values: Vec<Vec<Pairs>> = moves
        .iter()
        .map(|m| match m {
            Moves::Decided(v) | Moves::Open { leaf: v, .. } => bounded(v.iter().copied().collect()),
        })
        .collect();
    // Worklist: a position is recomputed when a successor's value changed.
    let mut predecessors: Vec<Vec<usize>> = vec![Vec::new(); moves.len()];
    for (i, m) in moves.iter().enumerate() {
        if let Moves::Open {
            inputs, outputs, ..
        } = m
        {
            for &j in inputs
                .iter()
                .map(|i| &i.2)
                .chain(outputs.iter().map(|o| &o.1))
            {
                predecessors[j].push(i);
            }
        }
    }
    let mut queued = vec![true; moves.len()];
    let mut work: Vec<usize> = (0..moves.len()).collect();
    while let Some(i) = work.pop() {
        queued[i] = false;
        let Moves::Open {
            leaf,
            inputs,
            outputs,
        } = &moves[i]
        else {
            continue;
        };
        let mut family: Vec<Pairs> = leaf.iter().copied().collect();
        for &(_, lost, next) in inputs {
            family.extend(values[next].iter().map(|v| v | lost));
        }
        if !outputs.is_empty() {
            let mut all = vec![0];
            for &(_, next) in outputs {
                let combined = all
                    .iter()
                    .flat_map(|a| values[next].iter().map(move |b| a | b))
                    .collect();
                all = bounded(combined);
            }
            family.extend(all);
        }
        let family = bounded(family);
        if family != values[i] {
            values[i] = family;
            for &k in &predecessors[i] {
                if !queued[k] {
                    queued[k] = true;
                    work.push(k);
                }
            }
        }
    }
    values
}

/// A weighted variant of the game, for the repair of ADG sub-DAGs ([`super::repair`]) and for
/// the whole-set bound of [`forced_losses`]: a pair of origins is *alive* while its origins are
/// in different groups whose states are incompatible; every move costs the weight of the alive
/// pairs it ends (merged, made compatible, or left behind by an input one of them does not
/// enable), waiting for outputs combines, over the outputs, the weight of the pairs ended in
/// that output's branch plus the branch's value ([`Branches`]), and stopping costs the weight of
/// the alive pairs. A position of at most two groups costs nothing more (its groups are told
/// apart by their pairwise distinguishing moves, or are compatible). The value of a position is
/// the least cost of a finite strategy from it.
pub(crate) struct WeightedGame {
    /// Per position: stopping cost, then inputs and outputs as (label, cost, successor).
    moves: Vec<Option<WeightedMoves>>,
    values: Vec<u64>,
    branches: Branches,
}

/// How the costs of the branches of waiting for an output combine in a [`WeightedGame`].
///
/// The pairs a strategy loses from a position are the union of the pairs lost in its branches
/// (one pair may be lost in two: output nondeterminism lets both origins produce either
/// output), and in one branch the pairs ended by the move and those lost further on are
/// disjoint (ended pairs are no longer alive). So the weight of the union is at most the sum
/// over the branches and at least their maximum; by induction over a finite strategy, the value
/// with [`Branches::Sum`] bounds from above what the strategy of least cost loses, and the value
/// with [`Branches::Max`] bounds from below what *every* strategy loses. The latter holds for
/// the least fixed point computed here whatever cycles the positions have: the values only
/// decrease from the stopping costs, and at the end every position's value is at most the cost
/// of each of its moves given its successors' values, so induction over the depth of any
/// finite strategy shows that the strategy's loss is at least the value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Branches {
    /// The sum over the branches: an upper bound, used to find good strategies.
    Sum,
    /// The largest branch: a lower bound on every strategy's loss.
    Max,
}

impl Branches {
    fn combine(self, costs: impl Iterator<Item = u64>) -> u64 {
        match self {
            Branches::Sum => costs.sum(),
            Branches::Max => costs.max().unwrap_or(0),
        }
    }
}

/// The moves of an open position of a [`WeightedGame`].
struct WeightedMoves {
    stop: u64,
    inputs: Vec<(LabelId, u64, usize)>,
    outputs: Vec<(LabelId, u64, usize)>,
}

impl Game<'_> {
    /// The weight of the alive pairs of `p` among the groups `keep` accepts.
    fn alive(&self, p: &Position, weight: &[u64], keep: impl Fn(&Group) -> bool) -> u64 {
        let mut total = 0;
        for (k, &(m, q)) in p.iter().enumerate().filter(|(_, g)| keep(g)) {
            for &(n, r) in p[k + 1..].iter().filter(|g| keep(g)) {
                if self.compat.compatible(q, r) {
                    continue;
                }
                for i in Self::members(m) {
                    for j in Self::members(n) {
                        total += weight[i * self.origins + j];
                    }
                }
            }
        }
        total
    }
}

/// Explores and solves the weighted game of `origins` (at most [`MAX_GAME_ORIGINS`] behaviour
/// classes' representatives) with `weight[i * n + j]` the weight of the pair of origins `i` and
/// `j` (`n` origins), branches combined by `branches`; `None` beyond `limit` positions.
pub(crate) fn weighted_game(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    representative: &[StateId],
    origins: &[StateId],
    weight: &[u64],
    limit: usize,
    branches: Branches,
) -> Option<WeightedGame> {
    let (game, start) = game_of(sa, compat, representative, origins, |_, _| Some(0));
    // Positions in the order found (a position's index is its place in the map, so each is
    // stored once), each with the weight of its alive pairs (its stopping cost, and what a move
    // into it leaves alive), computed once.
    let stop = game.alive(&start, weight, |_| true);
    let mut positions: IndexMap<Position, u64, FastBuild> = IndexMap::default();
    positions.insert(start, stop);
    let mut moves: Vec<Option<WeightedMoves>> = Vec::new();
    let mut k = 0;
    while k < positions.len() {
        let (p, &stop) = positions.get_index(k).expect("k is below the length");
        let p = p.clone();
        k += 1;
        if p.len() <= 2 {
            moves.push(None);
            continue;
        }
        // The index of `q` and the weight of its alive pairs.
        let mut intern = |q: Position| -> (usize, u64) {
            match positions.entry(q) {
                Entry::Occupied(e) => (e.index(), *e.get()),
                Entry::Vacant(e) => {
                    let alive = game.alive(e.key(), weight, |_| true);
                    let j = e.index();
                    e.insert(alive);
                    (j, alive)
                }
            }
        };
        let (mut inputs, mut outputs) = (Vec::new(), Vec::new());
        for l in game.labels(&p) {
            let (_, next) = game.step(&p, l);
            let (j, after) = intern(next);
            if sa.alphabet.is_input(l) {
                inputs.push((l, stop.saturating_sub(after), j));
            } else if sa.alphabet.is_output(l) {
                let before = game.alive(&p, weight, |g| sa.after(g.1, l).is_some());
                outputs.push((l, before.saturating_sub(after), j));
            }
        }
        moves.push(Some(WeightedMoves {
            stop,
            inputs,
            outputs,
        }));
        if positions.len() > limit {
            return None;
        }
    }
    // The positions are not needed to solve the game: their memory goes before the solver's
    // comes (the two weighted games of a repair on rio3000, of 140,000 positions each, held 63
    // MiB at their peak with the positions kept twice and to the end, 39 MiB now; issue 44).
    drop(positions);
    let cost = |m: &WeightedMoves, values: &[u64]| -> u64 {
        let mut best = m.stop;
        for &(_, c, j) in &m.inputs {
            best = best.min(c + values[j]);
        }
        if !m.outputs.is_empty() {
            best = best.min(branches.combine(m.outputs.iter().map(|&(_, c, j)| c + values[j])));
        }
        best
    };
    let mut values: Vec<u64> = moves
        .iter()
        .map(|m| m.as_ref().map_or(0, |m| m.stop))
        .collect();
    let mut predecessors: Vec<Vec<usize>> = vec![Vec::new(); moves.len()];
    for (i, m) in moves.iter().enumerate() {
        if let Some(m) = m {
            for &(_, _, j) in m.inputs.iter().chain(&m.outputs) {
                predecessors[j].push(i);
            }
        }
    }
    let mut queued = vec![true; moves.len()];
    let mut work: Vec<usize> = (0..moves.len()).collect();
    while let Some(i) = work.pop() {
        queued[i] = false;
        let Some(m) = &moves[i] else { continue };
        let v = cost(m, &values);
        if v < values[i] {
            values[i] = v;
            for &k in &predecessors[i] {
                if !queued[k] {
                    queued[k] = true;
                    work.push(k);
                }
            }
        }
    }
    Some(WeightedGame {
        moves,
        values,
        branches,
    })
}

impl WeightedGame {
    /// Number of positions explored.
    pub(crate) fn positions(&self) -> usize {
        self.moves.len()
    }

    /// The least cost from the start.
    pub(crate) fn value(&self) -> u64 {
        self.values[0]
    }

    /// A strategy of least cost, as a choice per position (`None` off the strategy), found as an
    /// attractor: rank 0 where stopping (or a position of at most two groups) costs the value,
    /// rank `r` where a move of cost equal to the value leads to positions of lower ranks. Every
    /// value was lowered last from successor values that were final by then, so every position
    /// gets a rank, and following the strategy ends. Waiting for outputs comes first, then
    /// inputs in label order.
    pub(crate) fn strategy(&self) -> Option<Vec<Option<Choice>>> {
        let v = &self.values;
        let stops = self.moves.iter().enumerate().map(|(i, m)| match m {
            None => true,
            Some(m) => m.stop == v[i],
        });
        attractor(stops.collect(), |i, ranked| {
            let m = self.moves[i].as_ref()?;
            let waits = !m.outputs.is_empty()
                && m.outputs.iter().all(|&(_, _, j)| ranked[j])
                && self
                    .branches
                    .combine(m.outputs.iter().map(|&(_, c, j)| c + v[j]))
                    == v[i];
            if waits {
                return Some(Choice::Outputs(
                    m.outputs.iter().map(|&(x, _, j)| (x, j)).collect(),
                ));
            }
            m.inputs
                .iter()
                .find(|&&(_, c, j)| ranked[j] && c + v[j] == v[i])
                .map(|&(a, _, j)| Choice::Input(a, j))
        })
    }
}

/// The choices of an attractor: positions where `stops` holds stop (rank 0); then, round after
/// round, `pick(i, ranked)` may choose a move for an unranked position `i` whose successors all
/// are in `ranked` (ranked in earlier rounds). `None` if the start (position 0) gets no rank.
fn attractor(
    stops: Vec<bool>,
    mut pick: impl FnMut(usize, &[bool]) -> Option<Choice>,
) -> Option<Vec<Option<Choice>>> {
    let mut choice: Vec<Option<Choice>> = stops
        .into_iter()
        .map(|stop| stop.then_some(Choice::Stop))
        .collect();
    loop {
        // One round: only positions ranked in earlier rounds count as lower.
        let ranked: Vec<bool> = choice.iter().map(Option::is_some).collect();
        let mut changed = false;
        for i in 0..choice.len() {
            if ranked[i] {
                continue;
            }
            if let Some(c) = pick(i, &ranked) {
                choice[i] = Some(c);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    choice[0].is_some().then_some(choice)
}

/// The minimal sets of `family` (no kept set contains another), in (size, bits) order.
fn least(mut family: Vec<Pairs>) -> Vec<Pairs> {
    family.sort_unstable_by_key(|&s| (s.count_ones(), s));
    family.dedup();
    let mut out: Vec<Pairs> = Vec::with_capacity(family.len());
    for s in family {
        // Kept sets are no larger: keep `s` unless one of them is a subset of it.
        if !out.iter().any(|&k| k & !s == 0) {
            out.push(s);
        }
    }
    out
}

/// How [`least_losses`] settled a set.
pub(super) enum Solved {
    /// A short strategy loses nothing.
    Quickly,
    /// The game gave the least families of lost pairs.
    ByGame(Vec<Pairs>),
    /// The game outgrew [`GAME_POSITIONS`].
    GaveUp,
}

impl Solved {
    pub(super) fn family(self) -> Option<Vec<Pairs>> {
        match self {
            Solved::Quickly => Some(vec![0]),
            Solved::ByGame(f) => Some(f),
            Solved::GaveUp => None,
        }
    }
}

/// The game of the origins `origins` (distinct behaviour classes' representatives, at most
/// [`MAX_GAME_ORIGINS`]), with its start position: origin `i` is bit `i` of the masks, and the
/// incompatible pair `(i, j)`, `i < j`, has the bit `bit(i, j)` (`None`: it may not be lost).
fn game_of<'a>(
    sa: &'a SuspensionAutomaton,
    compat: &'a Compatibility,
    representative: &'a [StateId],
    origins: &[StateId],
    bit: impl Fn(usize, usize) -> Lost,
) -> (Game<'a>, Position) {
    debug_assert!(origins.len() <= MAX_GAME_ORIGINS);
    let n = origins.len();
    let mut pair = vec![Some(0); n * n];
    for (i, &p) in origins.iter().enumerate() {
        for (j, &q) in origins.iter().enumerate().skip(i + 1) {
            if p != q && !compat.compatible(p, q) {
                let b = bit(i, j);
                pair[i * n + j] = b;
                pair[j * n + i] = b;
            }
        }
    }
    let game = Game {
        sa,
        compat,
        representative,
        origins: n,
        pair,
    };
    let mut start: Position = origins
        .iter()
        .enumerate()
        .map(|(i, &q)| (1 << i, q))
        .collect();
    start.sort_unstable_by_key(|g| g.1);
    (game, start)
}

/// `λ(T)` for the origins `T` (distinct states, at most [`MAX_ORIGINS`]): the families of least
/// sets of lost pairs, as bits `pair_bit(i, j)` over positions in `origins`.
pub(super) fn least_losses(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    representative: &[StateId],
    origins: &[StateId],
) -> Solved {
    debug_assert!(origins.len() <= MAX_ORIGINS);
    let (game, start) = game_of(sa, compat, representative, origins, |i, j| {
        Some(pair_bit(i, j))
    });
    if game.separates_within(&start, QUICK_DEPTH) {
        return Solved::Quickly;
    }
    match game.explore(start, GAME_POSITIONS, Beyond::GiveUp) {
        Some((moves, _)) => {
            Solved::ByGame(least_families(&moves, Pairs::MAX, usize::MAX).swap_remove(0))
        }
        None => Solved::GaveUp,
    }
}

/// The game of a set of origins, explored, from which strategies are drawn: the repair of ADG
/// subtrees ([`super::repair`]) plays them. Only some pairs may be lost; bit `k` of a set of
/// pairs is the `k`-th of them.
pub(crate) struct ExploredGame {
    moves: Vec<Moves>,
    /// Whether the exploration was cut at its limit ([`Beyond::Stop`]).
    cut: bool,
}

/// What a strategy does in a position of an [`ExploredGame`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Choice {
    /// Stop, or (at most two groups) settle the position by distinguishing its two groups if
    /// their states are incompatible: either way the position's stopping loss bounds the loss.
    Stop,
    /// Apply the input and continue in the given position.
    Input(LabelId, usize),
    /// Wait for an output: one successor position per output some state of the position allows.
    Outputs(Vec<(LabelId, usize)>),
}

/// Explores the game of `origins` (at most [`MAX_GAME_ORIGINS`] behaviour classes'
/// representatives) in which only the incompatible pairs `losable` (pairs `(i, j)`, `i < j`, of
/// indices into `origins`; at most 128) may be lost; beyond `limit` positions, `None` or a cut
/// game as `beyond` says.
pub(crate) fn explore_game(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    representative: &[StateId],
    origins: &[StateId],
    losable: &[(usize, usize)],
    limit: usize,
    beyond: Beyond,
) -> Option<ExploredGame> {
    debug_assert!(losable.len() <= Pairs::BITS as usize);
    let bit = |i: usize, j: usize| {
        losable
            .binary_search(&(i.min(j), i.max(j)))
            .ok()
            .map(|k| 1 << k)
    };
    let (game, start) = game_of(sa, compat, representative, origins, bit);
    let (moves, cut) = game.explore(start, limit, beyond)?;
    Some(ExploredGame { moves, cut })
}

impl ExploredGame {
    /// Number of positions explored (frontier positions included).
    pub(crate) fn positions(&self) -> usize {
        self.moves.len()
    }

    /// Whether the exploration was cut at its limit (then the families are achievable but not
    /// necessarily least).
    pub(crate) fn cut(&self) -> bool {
        self.cut
    }

    /// The least sets of pairs a strategy from the start can keep its losses to, among those
    /// inside `allowed`, at most `cap` per position (see [`least_families`]).
    pub(crate) fn least_losses(&self, allowed: Pairs, cap: usize) -> Vec<Pairs> {
        least_families(&self.moves, allowed, cap).swap_remove(0)
    }

    /// A strategy losing only pairs of `target`, as a choice per position (`None` where no
    /// strategy from that position does), or `None` if none does from the start. Positions are
    /// ranked by the rounds of an attractor: rank 0 where stopping loses only pairs of `target`,
    /// rank `r` where a move leads (losing only pairs of `target` on the way) to positions of
    /// lower ranks; every chosen move lowers the rank, so following the strategy ends. At equal
    /// rank waiting for outputs comes first (no race, no state left behind), then inputs in
    /// label order.
    pub(crate) fn strategy(&self, target: Pairs) -> Option<Vec<Option<Choice>>> {
        let fits = |s: Pairs| s & !target == 0;
        let stops = self.moves.iter().map(|m| match m {
            Moves::Decided(v) | Moves::Open { leaf: v, .. } => v.is_some_and(fits),
        });
        attractor(stops.collect(), |i, ranked| {
            let Moves::Open {
                inputs, outputs, ..
            } = &self.moves[i]
            else {
                return None;
            };
            if !outputs.is_empty() && outputs.iter().all(|&(_, j)| ranked[j]) {
                return Some(Choice::Outputs(outputs.clone()));
            }
            inputs
                .iter()
                .find(|&&(_, lost, j)| fits(lost) && ranked[j])
                .map(|&(a, _, j)| Choice::Input(a, j))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identify::forced::representatives;
    use crate::identify::random::random_suspension;

    /// A game cut at its limit ([`Beyond::Stop`]) only claims what the full game achieves:
    /// every set of its family contains a least set of the full game's family (a version that
    /// gave frontier positions any value below their stopping loss would claim a set no
    /// strategy reaches); with a limit the full game fits, it is the full game; and some cut
    /// games do miss lighter sets (so cutting is exercised).
    #[test]
    fn a_cut_game_claims_only_what_the_full_game_achieves() {
        let (mut cut_games, mut weaker) = (0, 0);
        for seed in 0..80u64 {
            let sa = random_suspension(seed, 5 + (seed % 6) as usize, 3, 2);
            let compat = Compatibility::compute(&sa);
            let rep = representatives(&sa);
            let mut origins: Vec<StateId> = rep.clone();
            origins.sort_unstable();
            origins.dedup();
            origins.truncate(6);
            let mut losable = Vec::new();
            for j in 0..origins.len() {
                for i in 0..j {
                    if !compat.compatible(origins[i], origins[j]) {
                        losable.push((i, j));
                    }
                }
            }
            let all: Pairs = (1 << losable.len()) - 1;
            let explore =
                |limit, beyond| explore_game(&sa, &compat, &rep, &origins, &losable, limit, beyond);
            let Some(full) = explore(1_000_000, Beyond::GiveUp) else {
                continue;
            };
            assert!(!full.cut());
            let least = full.least_losses(all, usize::MAX);
            let whole = explore(full.positions(), Beyond::Stop).expect("never gives up");
            assert!(!whole.cut(), "seed {seed}");
            assert_eq!(whole.least_losses(all, usize::MAX), least, "seed {seed}");
            for limit in [1, 3, 10] {
                let cut = explore(limit, Beyond::Stop).expect("never gives up");
                if !cut.cut() {
                    continue;
                }
                cut_games += 1;
                let family = cut.least_losses(all, usize::MAX);
                for &s in &family {
                    assert!(
                        least.iter().any(|&f| f & !s == 0),
                        "seed {seed} limit {limit}: {s:b} beats {least:?}"
                    );
                    assert!(cut.strategy(s).is_some(), "seed {seed} limit {limit}");
                }
                weaker += usize::from(family != least);
            }
        }
        assert!(cut_games > 20, "only {cut_games} cut games");
        assert!(weaker > 5, "only {weaker} cut games lost a lighter set");
    }
}
