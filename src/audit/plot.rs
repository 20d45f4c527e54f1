//! The chart of an audit: suite size (send/expect nodes, log scale) and mutation score against
//! the bound, one series per method, drawn as SVG with `plotters` (SVG backend only: text is
//! written as SVG `<text>` elements, so no fonts are needed to draw it).

use super::report::AuditReport;
use crate::{Error, Result};
use plotters::prelude::*;

/// Series colours, in method order (repeated beyond eight methods).
const COLOURS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

/// A tick label of the log-scale axis: whole numbers below 10,000 as they are (`500`), larger
/// values in scientific notation with two significant digits (`1e7`, `2.5e5`), never
/// `10000000.0`.
fn log_tick(v: f64) -> String {
    if (1.0..10_000.0).contains(&v) {
        format!("{}", v.round() as u64)
    } else {
        format!("{v:.1e}").replace(".0e", "e")
    }
}

/// The audit as an SVG document: steps (log scale) above, mutation score below.
pub fn audit_svg(report: &AuditReport) -> Result<String> {
    let mut svg = String::new();
    draw(report, &mut svg).map_err(|e| {
        Error::io(
            "audit chart",
            std::io::Error::other(format!("cannot draw the chart: {e}")),
        )
    })?;
    Ok(svg)
}

/// Writes [`audit_svg`] to `path`.
pub fn write_audit_svg(report: &AuditReport, path: &str) -> Result<()> {
    let svg = audit_svg(report)?;
    Ok(crate::output::write_file(path, svg.as_bytes())?)
}

type DrawResult = std::result::Result<(), Box<dyn std::error::Error>>;

fn draw(report: &AuditReport, out: &mut String) -> DrawResult {
    let symbol = report.bound_kind.symbol();
    let rows = report.methods.iter().flat_map(|m| &m.rows);
    let (mut lo, mut hi) = (i32::MAX, i32::MIN);
    let mut max_steps = 1u64;
    let mut min_steps = u64::MAX;
    for r in rows {
        lo = lo.min(r.bound as i32);
        hi = hi.max(r.bound as i32);
        max_steps = max_steps.max(r.steps);
        min_steps = min_steps.min(r.steps.max(1));
    }
    if lo > hi {
        (lo, hi) = (0, 1);
        min_steps = 1;
    }
    let x_range = if lo == hi { lo - 1..hi + 1 } else { lo..hi };
    let x_labels = (x_range.end - x_range.start + 1) as usize;
    let y_lo = (min_steps as f64 / 2.0).max(0.5);
    let y_hi = max_steps as f64 * 2.0;

    let root = SVGBackend::with_string(out, (900, 720)).into_drawing_area();
    root.fill(&WHITE)?;
    let (upper, lower) = root.split_vertically(380);

    let mut size = ChartBuilder::on(&upper)
        .caption(
            format!(
                "{}: suite size (send/expect nodes) against {symbol}",
                report.model
            ),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(70)
        .build_cartesian_2d(x_range.clone(), (y_lo..y_hi).log_scale())?;
    size.configure_mesh()
        .x_labels(x_labels)
        .x_desc(symbol)
        .y_desc("steps (log scale)")
        .y_label_formatter(&|v| log_tick(*v))
        .draw()?;
    for (k, m) in report.methods.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let points: Vec<(i32, f64)> = m
            .rows
            .iter()
            .map(|r| (r.bound as i32, r.steps.max(1) as f64))
            .collect();
        size.draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))?
            .label(m.method.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
        size.draw_series(
            points
                .into_iter()
                .map(|p| Circle::new(p, 3, colour.filled())),
        )?;
    }
    size.configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .border_style(BLACK)
        .background_style(WHITE.mix(0.85))
        .draw()?;

    let mut score = ChartBuilder::on(&lower)
        .caption(
            format!(
                "mutation score against {symbol} ({} mutants per bound, seed {})",
                report.mutants, report.seed
            ),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(70)
        .build_cartesian_2d(x_range, 0.0f64..1.05f64)?;
    score
        .configure_mesh()
        .x_labels(x_labels)
        .x_desc(symbol)
        .y_desc("detected / non-conforming")
        .draw()?;
    for (k, m) in report.methods.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let points: Vec<(i32, f64)> = m
            .rows
            .iter()
            .filter_map(|r| r.score.map(|s| (r.bound as i32, s)))
            .collect();
        score
            .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))?
            .label(m.method.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
        score.draw_series(
            points
                .into_iter()
                .map(|p| Circle::new(p, 3, colour.filled())),
        )?;
    }
    score
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerLeft)
        .border_style(BLACK)
        .background_style(WHITE.mix(0.85))
        .draw()?;
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::log_tick;

    #[test]
    fn log_ticks_read_as_numbers_or_powers() {
        assert_eq!(log_tick(500.0), "500");
        assert_eq!(log_tick(1.0), "1");
        assert_eq!(log_tick(10_000_000.0), "1e7");
        assert_eq!(log_tick(250_000.0), "2.5e5");
        assert_eq!(log_tick(12_345.0), "1.2e4");
        assert_eq!(log_tick(0.5), "5e-1");
    }
}
