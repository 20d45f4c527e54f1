//! The coverage section of an STS run's report ([`SwitchCoverage`]): the STS's switches (van
//! den Bos Def. 4.3) and the items of the criterion beyond them, each with the purposes that
//! take it and whether an observed trace covered it.

use super::page::{bar, percent};
use crate::exec::sts_run::{PurposePath, StsRunReport};
use crate::render::escape::html_text;
use crate::sts::purposes::{Criterion, ratio};
use crate::sts::types::{Direction, Sts};
use std::fmt::Write as _;

/// The switches of an STS with their a posteriori coverage, for the report's coverage section.
#[derive(Clone, Debug)]
pub struct SwitchCoverage {
    model: String,
    switches: Vec<SwitchRow>,
    /// The criterion beyond switch coverage and its items, each with whether an observed trace
    /// covered it (`None` for switch coverage).
    items: Option<(&'static str, Vec<(String, bool)>)>,
}

#[derive(Clone, Debug)]
struct SwitchRow {
    name: String,
    from: String,
    /// `?gate(p, q)` or `!gate(p, q)`.
    gate: String,
    guard: String,
    /// `x := term`, separated by `; `.
    assignments: String,
    to: String,
    /// The numbers (from 1) of the purposes whose path holds the switch.
    purposes: Vec<usize>,
    covered: bool,
}

impl SwitchCoverage {
    /// The switches of `sts` as `report` covered them, with the purposes of `purposes` that
    /// take each.
    pub fn new(sts: &Sts, purposes: &[PurposePath], report: &StsRunReport) -> SwitchCoverage {
        let switches = sts
            .switches
            .iter()
            .enumerate()
            .map(|(k, s)| {
                let gate = &sts.gates[s.gate];
                let parameters: Vec<&str> =
                    gate.parameters.iter().map(|p| p.name.as_str()).collect();
                let mark = if gate.direction == Direction::Input {
                    '?'
                } else {
                    '!'
                };
                let assignments: Vec<String> = s
                    .assignments
                    .iter()
                    .zip(&s.assignment_texts)
                    .map(|((v, _), text)| format!("{} := {text}", sts.variables[*v].name))
                    .collect();
                SwitchRow {
                    name: s.name.clone(),
                    from: sts.locations[s.from].clone(),
                    gate: if parameters.is_empty() {
                        format!("{mark}{}", gate.name)
                    } else {
                        format!("{mark}{}({})", gate.name, parameters.join(", "))
                    },
                    guard: s.guard_text.clone(),
                    assignments: assignments.join("; "),
                    to: sts.locations[s.to].clone(),
                    purposes: purposes
                        .iter()
                        .enumerate()
                        .filter(|(_, p)| p.switches.contains(&k))
                        .map(|(i, _)| i + 1)
                        .collect(),
                    covered: report.exercised.get(k).copied().unwrap_or(false),
                }
            })
            .collect();
        SwitchCoverage {
            model: sts.name.clone(),
            switches,
            items: (report.criterion != Criterion::SWITCHES)
                .then(|| (report.criterion.name(), report.items.clone())),
        }
    }

    /// The coverage section's content: figures, the switch table, the items.
    pub(super) fn render(&self, h: &mut String) {
        let covered = self.switches.iter().filter(|s| s.covered).count();
        let total = self.switches.len();
        let _ = writeln!(
            h,
            "<p>The switches of the STS {} (van den Bos Def. 4.3).</p>\n\
             <p class=\"coverage\" id=\"coverage-figure\">A posteriori switch coverage: <b id=\"switches-covered\">{}</b>.</p>\n\
             {}<p class=\"note\">A switch is covered when an observed trace was taken through it where the trace determines it (one tracked state of the STS, one switch enabling the step).</p>",
            html_text(&self.model),
            ratio(covered, total),
            bar(percent(covered, total))
        );
        let missed: Vec<&str> = self
            .switches
            .iter()
            .filter(|s| !s.covered)
            .map(|s| s.name.as_str())
            .collect();
        if !missed.is_empty() {
            let _ = writeln!(
                h,
                "<p class=\"failure\" id=\"switches-missed\">Not covered: {}</p>",
                html_text(&missed.join(", "))
            );
        }
        h.push_str(
            "<table class=\"list\" id=\"switch-table\">\n<thead><tr><th>switch</th><th>from</th><th>gate</th><th>guard</th><th>assignments</th><th>to</th><th>purposes</th><th>a posteriori</th></tr></thead>\n<tbody>\n",
        );
        for (k, s) in self.switches.iter().enumerate() {
            let class = if s.covered { "covered" } else { "missed" };
            let purposes: Vec<String> = s.purposes.iter().map(usize::to_string).collect();
            let _ = writeln!(
                h,
                "<tr id=\"switch-{k}\" class=\"{class}\"><td class=\"name\">{}</td><td>{}</td><td><code>{}</code></td><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td class=\"mark\">{class}</td></tr>",
                html_text(&s.name),
                html_text(&s.from),
                html_text(&s.gate),
                html_text(&s.guard),
                if s.assignments.is_empty() {
                    "none".to_owned()
                } else {
                    format!("<code>{}</code>", html_text(&s.assignments))
                },
                html_text(&s.to),
                if purposes.is_empty() {
                    "none".to_owned()
                } else {
                    purposes.join(", ")
                },
            );
        }
        h.push_str("</tbody>\n</table>\n");
        let Some((criterion, items)) = &self.items else {
            return;
        };
        let covered = items.iter().filter(|(_, c)| *c).count();
        let _ = writeln!(
            h,
            "<h3>Items of {criterion} beyond switches</h3>\n\
             <p class=\"coverage\" id=\"items-figure\">A posteriori {criterion} coverage: <b id=\"items-covered\">{}</b> (pairs and bounds).</p>\n\
             {}<p class=\"note\">A pair <code>r1,r2</code> is covered where the trace determines both switches, a bound <code>r[x=n]</code> where it determines the switch and the state.</p>\n\
             <table class=\"list\" id=\"item-table\">\n<thead><tr><th>item</th><th>a posteriori</th></tr></thead>\n<tbody>",
            ratio(covered, items.len()),
            bar(percent(covered, items.len()))
        );
        for (name, covered) in items {
            let class = if *covered { "covered" } else { "missed" };
            let _ = writeln!(
                h,
                "<tr class=\"{class}\"><td><code>{}</code></td><td class=\"mark\">{class}</td></tr>",
                html_text(name)
            );
        }
        h.push_str("</tbody>\n</table>\n");
    }
}
