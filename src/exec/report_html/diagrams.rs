//! The drawings of an HTML report: a test's trace as a sequence diagram (tester and system
//! lifelines, the failing step highlighted) and the specification with what the run covered.

use super::coverage::SpecCoverage;
use super::page::{DRAWN_STEPS, shortened};
use crate::exec::TestVerdict;
use crate::exec::records::{ObservedStep, TestRecord};
use crate::render::escape::html_text;
use std::fmt::Write as _;

/// A trace as runners print it: `?in !out δ`, `(empty trace)` when there is no step.
pub(super) fn marked_trace(trace: &[ObservedStep]) -> String {
    if trace.is_empty() {
        return "(empty trace)".to_owned();
    }
    let steps: Vec<String> = trace
        .iter()
        .map(|step| match step {
            ObservedStep::Input(name) => format!("?{name}"),
            ObservedStep::Output(name) => format!("!{name}"),
            ObservedStep::Quiescence => "δ".to_owned(),
        })
        .collect();
    steps.join(" ")
}

/// The sequence diagram of record `k`'s trace (its last [`DRAWN_STEPS`] steps): tester and
/// system lifelines, one row per step, the last step highlighted when it is the failing one.
pub(super) fn sequence_diagram(k: usize, r: &TestRecord) -> String {
    const TESTER: f64 = 170.0;
    const SYSTEM: f64 = 590.0;
    const WIDTH: f64 = 780.0;
    const FIRST: f64 = 80.0;
    const ROW: f64 = 34.0;
    let skipped = r.trace.len().saturating_sub(DRAWN_STEPS);
    let steps = &r.trace[skipped..];
    let failing_last = r.verdict == TestVerdict::Fail && r.failure.is_some();
    let rows = steps.len() + usize::from(skipped > 0);
    let bottom = FIRST + ROW * rows as f64 + if failing_last { 30.0 } else { 0.0 };
    let height = bottom + 10.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<div class=\"scroll\"><svg class=\"sequence\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" viewBox=\"0 0 {WIDTH} {height}\" role=\"img\" aria-label=\"sequence diagram of {}\">",
        html_text(&r.name)
    );
    let _ = writeln!(
        s,
        "<defs><marker id=\"seq{k}-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#37474f\"/></marker>\
         <marker id=\"seq{k}-fail\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#c62828\"/></marker></defs>"
    );
    for (x, name) in [(TESTER, "tester"), (SYSTEM, "system")] {
        let _ = writeln!(
            s,
            "<rect class=\"actor\" x=\"{}\" y=\"10\" width=\"140\" height=\"32\" rx=\"5\"/><text class=\"actor-name\" x=\"{x}\" y=\"31\" text-anchor=\"middle\">{name}</text><line class=\"lifeline\" x1=\"{x}\" y1=\"42\" x2=\"{x}\" y2=\"{bottom}\"/>",
            x - 70.0
        );
    }
    let mut y = FIRST;
    if skipped > 0 {
        let _ = writeln!(
            s,
            "<text class=\"note\" x=\"{}\" y=\"{y}\" text-anchor=\"middle\">… {skipped} earlier steps not drawn</text>",
            (TESTER + SYSTEM) / 2.0
        );
        y += ROW;
    }
    let middle = (TESTER + SYSTEM) / 2.0;
    for (i, step) in steps.iter().enumerate() {
        let fail = failing_last && i + 1 == steps.len();
        let (class, marker) = if fail {
            ("step fail", "fail")
        } else {
            ("step", "arrow")
        };
        let _ = write!(s, "<g class=\"{class}\">");
        if fail {
            let _ = write!(
                s,
                "<rect class=\"fail-row\" x=\"40\" y=\"{}\" width=\"{}\" height=\"{ROW}\"/>",
                y - ROW / 2.0 - 2.0,
                WIDTH - 50.0
            );
        }
        let _ = write!(
            s,
            "<text class=\"stepno\" x=\"30\" y=\"{}\" text-anchor=\"end\">{}</text>",
            y + 4.0,
            skipped + i + 1
        );
        let arrow = |s: &mut String, from: f64, to: f64, kind: &str, text: String| {
            let _ = write!(
                s,
                "<line class=\"msg {kind}\" x1=\"{from}\" y1=\"{y}\" x2=\"{to}\" y2=\"{y}\" marker-end=\"url(#seq{k}-{marker})\"/><text class=\"label\" x=\"{middle}\" y=\"{}\" text-anchor=\"middle\"><title>{}</title>{}</text>",
                y - 6.0,
                html_text(&text),
                html_text(&shortened(&text, 56))
            );
        };
        match step {
            ObservedStep::Input(name) => arrow(&mut s, TESTER, SYSTEM, "input", format!("?{name}")),
            ObservedStep::Output(name) => {
                arrow(&mut s, SYSTEM, TESTER, "output", format!("!{name}"))
            }
            ObservedStep::Quiescence => {
                let _ = write!(
                    s,
                    "<rect class=\"wait\" x=\"{}\" y=\"{}\" width=\"16\" height=\"24\" rx=\"3\"/><path class=\"wait\" d=\"M{} {} h10 l-10 14 h10 z\"/><text class=\"label quiet\" x=\"{}\" y=\"{}\">δ quiescence: no output within the timeout</text>",
                    TESTER - 8.0,
                    y - 12.0,
                    TESTER - 5.0,
                    y - 7.0,
                    TESTER + 16.0,
                    y + 4.0
                );
            }
        }
        if fail {
            let _ = write!(
                s,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"start\">✗</text>",
                SYSTEM + 14.0,
                y + 5.0
            );
        }
        s.push_str("</g>\n");
        y += ROW;
    }
    if let (true, Some(failure)) = (failing_last, &r.failure) {
        let _ = writeln!(
            s,
            "<text class=\"expected\" x=\"{}\" y=\"{}\"><title>{}</title>{}</text>",
            TESTER - 120.0,
            y + 4.0,
            html_text(failure),
            html_text(&shortened(failure, 100))
        );
    }
    s.push_str("</svg></div>\n");
    s
}

/// The specification drawn by [`crate::render::draw`] with what the run covered.
pub(super) fn model_diagram(coverage: &SpecCoverage) -> String {
    let mut s = String::from("<div class=\"scroll\">");
    coverage
        .picture()
        .svg_element(&mut s, "model-drawing", true);
    s.push_str("</div>\n");
    s
}
