//! L3's share link: its actions as text for the URL, and back (through `labs::share`).

use super::model::{parse_autovacuum, parse_config, parse_jobs, strategies, Action, Strategy};
use crate::keys;
use crate::labs::share;
use queue_lab_core::i18n::Msg;

/// The actions as a share link's text: one letter per action, values after it, actions
/// joined by `labs::share`'s separator: `r20000,3,2000,1;v;l1;sdelete`. A run's last value
/// says whether DELETE + VACUUM runs too.
pub fn encode(actions: &[Action]) -> String {
    let opt = |v: Option<String>| v.unwrap_or_default();
    share::encode(actions, |a| match a {
        Action::Run(c) => {
            let dv = c.strategies.contains(&Strategy::DeleteVacuum);
            format!("r{},{},{},{}", c.jobs, c.rounds, c.batch, share::flag(dv))
        }
        Action::Vacuum => "v".into(),
        Action::LongTx(on) => format!("l{}", share::flag(*on)),
        Action::Select(s) => format!("s{}", s.id()),
        Action::Autovacuum(s, i) => format!(
            "a{},{},{},{}",
            s.id(),
            opt(i.threshold.map(|v| v.to_string())),
            opt(i.scale_factor.map(|v| v.to_string())),
            opt(i.max_threshold.map(|v| v.to_string()))
        ),
        Action::Plans(jobs) => format!("p{jobs}"),
        Action::FullLock => "f".into(),
        Action::FullRun => "F".into(),
    })
}

/// Reads [`encode`]'s text back; every value is checked against the bounds the inputs
/// have, so a hand-edited link is refused with the step it could not read. Links made
/// before the one codec (steps joined by `~`) still open.
pub fn decode(text: &str) -> Result<Vec<Action>, Msg> {
    share::decode(text, '~', keys::VACUUM_ERR_SHARE, step)
}

/// One step of the text, or `None`.
fn step(s: &share::Step) -> Option<Action> {
    let strategy = |p: &str| Strategy::parse(p);
    Some(match (s.kind, s.parts.as_slice()) {
        ('r', [jobs, rounds, batch, dv]) => {
            Action::Run(parse_config(jobs, rounds, batch, strategies(share::read_flag(dv)?)).ok()?)
        }
        ('v', _) => s.bare().map(|()| Action::Vacuum)?,
        ('l', [on]) => Action::LongTx(share::read_flag(on)?),
        ('s', [id]) => Action::Select(strategy(id)?),
        ('a', [id, threshold, scale, max]) => {
            Action::Autovacuum(strategy(id)?, parse_autovacuum(threshold, scale, max).ok()?)
        }
        ('p', [jobs]) => Action::Plans(parse_jobs(jobs).ok()?),
        ('f', _) => s.bare().map(|()| Action::FullLock)?,
        ('F', _) => s.bare().map(|()| Action::FullRun)?,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::vacuum::model::{parse_autovacuum, parse_config, strategies, Strategy};

    #[test]
    fn a_share_link_round_trips_and_refuses_what_the_inputs_would_refuse() {
        let all = vec![
            Action::Run(parse_config("20000", "3", "2000", strategies(true)).unwrap()),
            Action::Run(parse_config("1000", "1", "500", strategies(false)).unwrap()),
            Action::Vacuum,
            Action::LongTx(true),
            Action::LongTx(false),
            Action::Select(Strategy::DeleteVacuum),
            Action::Autovacuum(
                Strategy::Delete,
                parse_autovacuum("100", "0.01", "-1").unwrap(),
            ),
            Action::Autovacuum(Strategy::Keep, parse_autovacuum("", "", "").unwrap()),
            Action::Plans(2000),
            Action::FullLock,
            Action::FullRun,
        ];
        let text = encode(&all);
        assert_eq!(decode(&text).unwrap(), all, "{text}");
        assert_eq!(
            strategies(false),
            vec![
                Strategy::Keep,
                Strategy::Delete,
                Strategy::Rotate,
                Strategy::Partition
            ]
        );
        assert_eq!(strategies(true).len(), 5);
        // The partitioned table in a share link: selected, and in a link's text.
        let picked = vec![Action::Select(Strategy::Partition)];
        assert_eq!(encode(&picked), "spartition");
        assert_eq!(decode("spartition").unwrap(), picked);
        for bad in [
            "r99,3,2000,1",
            "r20000,6,2000,1",
            "r20000,3,2000,2",
            "sdrop",
            "a",
            "x",
            "v1",
            "p50001",
            "akeep,,101,",
        ] {
            let e = decode(bad).unwrap_err();
            assert_eq!(e.key, keys::VACUUM_ERR_SHARE, "{bad}");
        }
        assert_eq!(decode("").unwrap(), vec![]);
    }

    #[test]
    fn a_link_made_before_the_one_codec_still_opens() {
        let old = "r20000,3,2000,1~v~l1~sdelete~akeep,100,0.01,-1";
        let text = match decode(old) {
            Ok(actions) => encode(&actions),
            Err(e) => panic!("{e:?}"),
        };
        assert_eq!(text, "r20000,3,2000,1;v;l1;sdelete;akeep,100,0.01,-1");
    }
}
