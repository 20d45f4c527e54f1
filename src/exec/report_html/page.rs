//! The pieces every HTML report page shares: its limits (what is drawn and listed), the
//! style sheet and legend, and the small formatters of times, percentages, bars and cut texts.

use std::borrow::Cow;
use std::time::Duration;

/// Models with more reachable states than this are not drawn.
pub const DRAWN_STATES: usize = 120;
/// Models with more reachable transitions than this are not drawn.
pub const DRAWN_TRANSITIONS: usize = 480;
/// How many failing tests get a sequence diagram (the others keep their row).
pub const DRAWN_FAILURES: usize = 20;
/// How many steps of a trace a sequence diagram shows (the last ones: a failure is at the end).
pub const DRAWN_STEPS: usize = 300;
/// How many missed transitions the report lists.
pub const MISSED_LISTED: usize = 50;

pub(in crate::exec) fn seconds(time: Duration) -> String {
    format!("{:.3} s", time.as_secs_f64())
}

/// `a` of `b` in percent (100% of nothing).
pub(in crate::exec) fn percent(a: usize, b: usize) -> f64 {
    if b == 0 {
        100.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

/// A coverage bar filled to `percent`.
pub(in crate::exec) fn bar(percent: f64) -> String {
    format!("<div class=\"bar\"><div class=\"fill\" style=\"width:{percent:.1}%\"></div></div>\n")
}

pub(super) const STYLE: &str = "
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0 auto;max-width:min(100%,1800px);box-sizing:border-box;padding:0 24px 40px;color:#212121;background:#fff}
header{display:flex;align-items:center;gap:20px;border-bottom:2px solid #eceff1}
h1{font-size:1.5em;margin:18px 0;overflow-wrap:anywhere}
h2{font-size:1.2em;margin-top:28px;border-bottom:1px solid #eceff1;padding-bottom:4px}
h3{font-size:1em}
.badge{font-weight:700;text-transform:uppercase;padding:4px 14px;border-radius:14px;color:#fff;margin:0}
.badge.pass{background:#2e7d32}.badge.fail{background:#c62828}.badge.inconclusive{background:#ef6c00}
.counts{display:flex;gap:12px;margin:8px 0 16px}
.count{border-radius:6px;padding:8px 16px;border:1px solid #cfd8dc;min-width:90px}
.count .number{font-size:1.6em;font-weight:700;margin-right:6px}
.count.pass .number{color:#2e7d32}.count.fail .number{color:#c62828}.count.inconclusive .number{color:#ef6c00}
table{border-collapse:collapse}
.facts th{text-align:left;padding:3px 16px 3px 0;color:#546e7a;font-weight:600;vertical-align:top}
.facts td{padding:3px 0;overflow-wrap:anywhere}
#test-table{width:100%;font-size:.92em}
#test-table th,#test-table td{border-bottom:1px solid #eceff1;padding:4px 8px;text-align:left;vertical-align:top}
#test-table td{overflow-wrap:anywhere}
#test-table td:first-child,#test-table td.verdict,#test-table td.verdict+td:not(:last-child){white-space:nowrap;overflow-wrap:normal}
#test-table td.name{min-width:18ch}
#test-table td:last-child{width:50%}
.scroll svg.ncomplete-model{display:block;height:auto}
#test-table tr.fail td.verdict{color:#c62828;font-weight:700}
#test-table tr.pass td.verdict{color:#2e7d32}
#test-table tr.inconclusive td.verdict{color:#ef6c00}
.failure{color:#b71c1c;font-weight:600;overflow-wrap:anywhere}
.note{color:#546e7a}
.bar{height:10px;background:#eceff1;border-radius:5px;max-width:480px;overflow:hidden}
.bar .fill{height:100%;background:#2e7d32}
svg text{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;fill:#263238}
.sequence .actor{fill:#eceff1;stroke:#546e7a}
.sequence .actor-name{font-family:system-ui,sans-serif;font-weight:700;font-size:13px}
.sequence .lifeline{stroke:#90a4ae;stroke-dasharray:6 4}
.sequence .msg{stroke:#37474f;stroke-width:1.6}
.sequence .wait{fill:#fff8e1;stroke:#ff8f00}
.sequence .stepno{fill:#90a4ae}
.sequence .fail .msg{stroke:#c62828;stroke-width:2.6}
.sequence .fail .wait{fill:#ffebee;stroke:#c62828;stroke-width:2}
.sequence .fail text,.sequence text.expected{fill:#c62828;font-weight:700}
.sequence .fail-row{fill:#ffebee}
.list{width:100%;font-size:.92em;margin-top:8px}
.list th,.list td{border-bottom:1px solid #eceff1;padding:4px 8px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
.list tr.covered td.mark{color:#2e7d32;font-weight:700}
.list tr.missed td{color:#757575}
.list tr.missed td.mark{color:#c62828;font-weight:700}
code.trace{color:#37474f;overflow-wrap:anywhere}
.legend span{margin-right:18px}
.legend .covered{color:#2e7d32;font-weight:700}.legend .missed{color:#757575}
.scroll{overflow-x:auto;border:1px solid #eceff1;border-radius:4px}
footer{margin-top:36px;color:#90a4ae;font-size:.85em}
";

pub(super) const LEGEND: &str = "<p class=\"legend\"><span class=\"covered\">━ covered transition</span><span class=\"missed\">╌ missed transition</span><span>● green: visited state</span><span>→ initial state</span></p>\n";

/// Cuts `s` to `max` characters, ending in `…` when cut.
pub(super) fn shortened(s: &str, max: usize) -> Cow<'_, str> {
    if s.chars().count() <= max {
        Cow::Borrowed(s)
    } else {
        let cut: String = s.chars().take(max.saturating_sub(1)).collect();
        Cow::Owned(cut + "…")
    }
}
