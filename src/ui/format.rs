//! How numbers, sizes and durations read on screen: the one home for them.

pub use queue_lab_core::format::{bytes, group};

/// Milliseconds without a unit: two decimals under 10, none above (0.09, 1.90, 723).
pub fn ms(v: f64) -> String {
    if v < 10.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.0}")
    }
}

/// A simulated duration in microseconds, in the unit that reads best: "850 µs", "12.3 ms",
/// "4.56 s", "1,234 s".
pub fn micros(us: u64) -> String {
    if us < 1_000 {
        format!("{us} µs")
    } else if us < 1_000_000 {
        format!("{:.1} ms", us as f64 / 1_000.0)
    } else if us < 1_000_000_000 {
        format!("{:.2} s", us as f64 / 1_000_000.0)
    } else {
        format!("{} s", group(us / 1_000_000))
    }
}

/// Milliseconds as seconds with one decimal: 2345.0 → "2.3".
pub fn seconds(ms: f64) -> String {
    format!("{:.1}", ms / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_in_milliseconds_and_seconds() {
        assert_eq!(ms(0.09), "0.09");
        assert_eq!(ms(723.4), "723");
        assert_eq!(seconds(2345.0), "2.3");
    }
}
