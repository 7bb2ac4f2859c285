//! The Oware notations of `docs/notation/oware.md` and OW-8, OW-9: rule sets, positions,
//! moves and records — canonical printing, round trips, every refusal with its one-line
//! message, and parsers that never panic on any input (fuzz-like property tests).
//!
//! The canonical texts are written from the grammar of OW-8.2 and the printing rule of
//! OW-8.3, not taken from the code's output.

use mancala_core::oware::{
    parse_moves, CycleScore, GrandSlam, Majority, MoveParseError, OptionValue, OwareLayout,
    OwareMove, OwareOption, OwarePosition, OwareRuleSet, OwareRules, PositionEnd, PositionError,
    RecordError, RulesError, NOTATION_MAX_BYTES,
};
use mancala_core::Side;
use proptest::prelude::*;

fn rules(text: &str) -> OwareRules {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn named_rule_sets_have_the_options_of_ow7() {
    let o = OwareRules::default();
    assert_eq!(o, rules("oware"));
    assert_eq!((o.houses(), o.seeds(), o.total_seeds()), (6, 4, 48));
    assert_eq!(o.grand_slam(), GrandSlam::None);
    assert_eq!(o.majority(), Majority::Stop);
    assert_eq!(o.repetition(), Some(3));
    assert_eq!(o.cycle_score(), CycleScore::OwnRow);
    assert_eq!(o.move_limit(), None);
    let a = rules("awari");
    assert_eq!(
        (
            a.grand_slam(),
            a.majority(),
            a.repetition(),
            a.cycle_score(),
            a.move_limit()
        ),
        (
            GrandSlam::UnlessOnly,
            Majority::Off,
            Some(3),
            CycleScore::Split,
            None
        )
    );
    let s = rules("oware-openspiel");
    assert_eq!(
        (
            s.grand_slam(),
            s.majority(),
            s.repetition(),
            s.cycle_score(),
            s.move_limit()
        ),
        (
            GrandSlam::None,
            Majority::Collect,
            Some(2),
            CycleScore::OwnRow,
            Some(1000)
        )
    );
    for head in OwareRuleSet::ALL {
        assert_eq!(rules(head.name()), head.rules());
        assert_eq!(head.rules().to_string(), head.name());
    }
}

#[test]
fn canonical_printing_of_ow8_3() {
    for (text, canonical) in [
        // The examples of OW-8.3.
        (
            "oware+majority=collect+repetition=2+move_limit=1000",
            "oware-openspiel",
        ),
        ("OWARE + Grand_Slam=Forbidden", "oware+grand_slam=forbidden"),
        // Size printed unless (6,4); white space around numbers ignored.
        ("oware( 4 , 3 )", "oware(4,3)"),
        ("oware(6,4)", "oware"),
        ("AWARI(2,2)+move_limit=50", "awari(2,2)+move_limit=50"),
        ("oware-openspiel(1,4)", "oware-openspiel(1,4)"),
        // The head whose defaults leave the fewest options: one option from awari.
        (
            "oware+grand_slam=unless_only+majority=off+cycle_score=split",
            "awari",
        ),
        (
            "oware+grand_slam=unless_only+majority=off",
            "awari+cycle_score=own_row",
        ),
        // Two options from awari beat three from oware.
        (
            "oware+grand_slam=unless_only+majority=off+repetition=off",
            "awari+repetition=off+cycle_score=own_row",
        ),
        // A tie (two options from oware, two from awari): oware first.
        (
            "awari+grand_slam=all+majority=stop",
            "oware+grand_slam=all+cycle_score=split",
        ),
        // Options in the grammar's order, whatever the order given (awari differs in four,
        // oware in five).
        (
            "oware+move_limit=7+cycle_score=split+repetition=off+majority=collect+grand_slam=all",
            "awari+grand_slam=all+majority=collect+repetition=off+move_limit=7",
        ),
        // Leading zeros are read; the default value printed as nothing.
        ("oware+repetition=03+move_limit=OFF", "oware"),
        (
            "oware-openspiel+repetition=3+move_limit=off",
            "oware+majority=collect",
        ),
        (
            "  oware-openspiel + majority = stop  ",
            "oware-openspiel+majority=stop",
        ),
        // Another tie: two options from each of oware and awari.
        (
            "awari+grand_slam=leave_last+majority=stop",
            "oware+grand_slam=leave_last+cycle_score=split",
        ),
        (
            "oware+repetition=9+move_limit=65535",
            "oware+repetition=9+move_limit=65535",
        ),
        ("oware(8,15)", "oware(8,15)"),
        ("oware(1,127)", "oware(1,127)"),
    ] {
        let r = rules(text);
        assert_eq!(r.to_string(), canonical, "{text}");
        assert_eq!(rules(canonical), r, "{canonical}");
    }
}

#[test]
fn option_values_from_the_table() {
    let r = OwareRules::default();
    assert_eq!(r.value(OwareOption::GrandSlam), OptionValue::Word("none"));
    assert_eq!(r.value(OwareOption::Repetition), OptionValue::Number(3));
    assert_eq!(r.value(OwareOption::MoveLimit), OptionValue::Word("off"));
    assert_eq!(
        OwareOption::MoveLimit.parse_value(" 1000 "),
        Ok(OptionValue::Number(1000))
    );
    assert_eq!(
        OwareOption::CycleScore.parse_value("SPLIT"),
        Ok(OptionValue::Word("split"))
    );
    for option in OwareOption::ALL {
        let info = option.info();
        assert_eq!(info.option, option);
        assert!(info.rule.starts_with("OW-"));
        assert_eq!(
            OwareOption::from_name(&info.name.to_uppercase()),
            Some(option)
        );
        // Every word and both ends of the number range are accepted and print back.
        let mut values: Vec<String> = info.words.iter().map(|w| w.to_string()).collect();
        if let Some((lo, hi)) = info.numbers {
            values.push(lo.to_string());
            values.push(hi.to_string());
            for bad in [lo - 1, hi + 1] {
                let text = format!("oware+{}={bad}", info.name);
                assert!(
                    matches!(text.parse::<OwareRules>(), Err(RulesError::BadValue { .. })),
                    "{text}"
                );
            }
        }
        for v in values {
            let r = rules(&format!("oware+{}={v}", info.name));
            assert_eq!(r.value(option).to_string(), v);
        }
    }
    assert_eq!(GrandSlam::LeaveLast.name(), "leave_last");
    assert_eq!(Majority::Collect.name(), "collect");
    assert_eq!(CycleScore::Split.name(), "split");
    // Setters validate like the parser.
    assert!(OwareRules::default().with_repetition(Some(1)).is_err());
    assert!(OwareRules::default().with_repetition(Some(10)).is_err());
    assert!(OwareRules::default().with_move_limit(Some(0)).is_err());
    assert_eq!(
        OwareRules::default()
            .with_move_limit(Some(200))
            .unwrap()
            .to_string(),
        "oware+move_limit=200"
    );
    assert_eq!(
        OwareRules::default().with_value(OwareOption::GrandSlam, OptionValue::Number(2)),
        Err(RulesError::BadValue {
            option: OwareOption::GrandSlam,
            value: "2".into()
        })
    );
}

/// Every refusal of the rule-set parser, with its message: one line, naming the bad part and
/// listing what is accepted.
#[test]
fn rule_set_refusals() {
    for (text, want, message) in [
        ("", RulesError::Syntax(String::new()), "malformed rule set ``: expected `oware|awari|oware-openspiel[(h,s)][+name=value…]`"),
        ("kalah(6,4)", RulesError::UnknownHead("kalah".into()), "unknown rule set `kalah` (accepted: oware, awari, oware-openspiel)"),
        ("oware x", RulesError::Syntax("oware x".into()), "malformed rule set `oware x`: expected `oware|awari|oware-openspiel[(h,s)][+name=value…]`"),
        ("oware(6,4", RulesError::Syntax("oware(6,4".into()), "malformed rule set `oware(6,4`: expected `oware|awari|oware-openspiel[(h,s)][+name=value…]`"),
        ("oware(6)", RulesError::Syntax("oware(6)".into()), "malformed rule set `oware(6)`: expected `oware|awari|oware-openspiel[(h,s)][+name=value…]`"),
        ("oware(1234567,4)", RulesError::Syntax("oware(1234567,4)".into()), "malformed rule set `oware(1234567,4)`: expected `oware|awari|oware-openspiel[(h,s)][+name=value…]`"),
        ("wari", RulesError::UnknownHead("wari".into()), "unknown rule set `wari` (accepted: oware, awari, oware-openspiel); did you mean `awari`?"),
        ("oware(9,4)", RulesError::Houses(9), "houses per side must be 1..=8, got 9"),
        ("oware(0,4)", RulesError::Houses(0), "houses per side must be 1..=8, got 0"),
        ("oware(6,0)", RulesError::Seeds(0), "seeds per house must be at least 1, got 0"),
        ("oware(8,16)", RulesError::TooManySeeds { houses: 8, seeds: 16, total: 256 }, "(8,16) has 2·8·16 = 256 seeds; at most 255 fit the board"),
        ("oware+colour=red", RulesError::UnknownOption("colour".into()), "unknown rule option `colour` (accepted: grand_slam, majority, repetition, cycle_score, move_limit)"),
        ("oware+", RulesError::UnknownOption(String::new()), "unknown rule option `` (accepted: grand_slam, majority, repetition, cycle_score, move_limit)"),
        ("oware+majority=off+MAJORITY=stop", RulesError::DuplicateOption(OwareOption::Majority), "rule option `majority` given twice"),
        ("oware+grand_slam", RulesError::MissingValue(OwareOption::GrandSlam), "rule option `grand_slam` needs a value: `+grand_slam=value` (accepted: none, all, forbidden, leave_last, unless_only)"),
        ("oware+grand_slam=some", RulesError::BadValue { option: OwareOption::GrandSlam, value: "some".into() }, "bad value `some` for rule option `grand_slam` (accepted: none, all, forbidden, leave_last, unless_only)"),
        ("oware+majority=", RulesError::BadValue { option: OwareOption::Majority, value: String::new() }, "bad value `` for rule option `majority` (accepted: stop, collect, off)"),
        ("oware+repetition=1", RulesError::BadValue { option: OwareOption::Repetition, value: "1".into() }, "bad value `1` for rule option `repetition` (accepted: 2..=9, off)"),
        ("oware+repetition=-3", RulesError::BadValue { option: OwareOption::Repetition, value: "-3".into() }, "bad value `-3` for rule option `repetition` (accepted: 2..=9, off)"),
        ("oware+cycle_score=half", RulesError::BadValue { option: OwareOption::CycleScore, value: "half".into() }, "bad value `half` for rule option `cycle_score` (accepted: own_row, split)"),
        ("oware+move_limit=65536", RulesError::BadValue { option: OwareOption::MoveLimit, value: "65536".into() }, "bad value `65536` for rule option `move_limit` (accepted: 1..=65535, off)"),
        ("oware+move_limit=1e3", RulesError::BadValue { option: OwareOption::MoveLimit, value: "1e3".into() }, "bad value `1e3` for rule option `move_limit` (accepted: 1..=65535, off)"),
    ] {
        let got = text.parse::<OwareRules>();
        assert_eq!(got, Err(want), "{text}");
        let msg = got.unwrap_err().to_string();
        assert_eq!(msg, message, "{text}");
        assert!(!msg.contains('\n'));
    }
    // A control character is escaped in the message; a long text is cut.
    let msg = "wari\0".parse::<OwareRules>().unwrap_err().to_string();
    assert_eq!(
        msg,
        "malformed rule set `wari\\0`: expected `oware|awari|oware-openspiel[(h,s)][+name=value…]`"
    );
    let long = format!("oware+grand_slam={}", "x".repeat(500));
    let msg = long.parse::<OwareRules>().unwrap_err().to_string();
    assert!(msg.len() < 250 && msg.contains('…'), "{msg}");
}

#[test]
fn position_round_trips() {
    let r = OwareRules::default();
    for text in [
        "4,4,4,4,4,4,0,4,4,4,4,4,4,0 S",
        "0,0,0,0,0,12,18,0,0,0,0,0,0,18 S",
        "1,2,0,0,0,4,18,0,0,0,0,3,1,19 N",
        "0,0,0,0,0,0,26,0,0,0,0,0,0,22 -",
        "0,0,0,0,0,0,26,0,1,3,5,0,0,13 -",
        "0,0,0,0,0,0,0,0,0,0,0,0,0,0 -",
        "0,50,0,0,0,0,150,0,0,0,0,0,0,55 -",
    ] {
        let p = OwarePosition::parse(r, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(p.to_string(), text);
        assert_eq!(OwarePosition::try_from(p.layout()), Ok(p));
    }
    // Lower-case sides, white space around and between the fields.
    let p = OwarePosition::parse(r, "  4,4,4,4,4,4,0,4,4,4,4,4,4,0 \t s \n").unwrap();
    assert_eq!(p, OwarePosition::start(r));
    let q = OwarePosition::parse(r, "1,2,0,0,0,4,18,0,0,0,0,3,1,19 n").unwrap();
    assert_eq!(q.side_to_move(), Some(Side::North));
    // A set-up position: counts as given, total their sum (OW-9.3).
    let q = OwarePosition::parse(rules("oware(2,2)"), "1,0,3,2,0,0 S").unwrap();
    assert_eq!(q.total_seeds(), 6);
    assert_eq!(q.counts().as_slice(), [1, 0, 3, 2, 0, 0]);
    assert_eq!(q.houses(Side::North).as_slice(), [2, 0]);
    // Lanes S1, S2, N1, N2 = 1, 0, 2, 0.
    assert_eq!(q.board_bits(), 0x00_02_00_01);
    assert_eq!(q.mover_relative(), 0x00_02_00_01);
    let n = q.play(OwareMove(1)).unwrap();
    // South's 1 seed to S2, North to move. Seen from North the lanes are N1, N2, S1, S2 =
    // 2, 0, 0, 1; in absolute order S1, S2, N1, N2 = 0, 1, 2, 0.
    assert_eq!(n.to_string(), "0,1,3,2,0,0 N");
    assert_eq!(n.mover_relative(), 0x01_00_00_02);
    assert_eq!(n.board_bits(), 0x00_02_01_00);
}

/// Every refusal of OW-9.2 and the parser's shape errors.
#[test]
fn position_refusals() {
    let r = OwareRules::default();
    let parse = |text: &str| OwarePosition::parse(r, text);
    for text in [
        "",
        "4,4,4,4,4,4,0,4,4,4,4,4,4,0",
        "4,4,4,4,4,4,0,4,4,4,4,4,4,0 X",
        "4,4,4,4,4,4,0,4,4,4,4,4,4,0 SN",
        "4,4,4,4,4,4,0,4,4,4,4,4,4,0 S -",
        "S",
    ] {
        assert_eq!(
            parse(text),
            Err(PositionError::Syntax(text.into())),
            "{text}"
        );
    }
    assert_eq!(
        parse("4,4,4,4,4,4,0,4,4,4,4,4,4 S"),
        Err(PositionError::CountNumber {
            houses: 6,
            expected: 14,
            got: 13
        })
    );
    assert_eq!(
        parse("4,4,4,4,4,4,0,4,4,4,4,4,4,0,0,0,0,0,0,0 S"),
        Err(PositionError::CountNumber {
            houses: 6,
            expected: 14,
            got: 20
        })
    );
    for (text, slot, bad) in [
        ("4,4,4,256,4,4,0,4,4,4,4,4,4,0 S", 4, "256"),
        ("4,4,4,4,4,4,0,4,4,4,4,4,4,0004 S", 14, "0004"),
        ("4,,4,4,4,4,0,4,4,4,4,4,4,0 S", 2, ""),
        ("4,4,4,4,4,4,0,4,4,4,4,4,4,-1 S", 14, "-1"),
        ("4,4,4,4,4,+4,0,4,4,4,4,4,4,0 S", 6, "+4"),
    ] {
        assert_eq!(
            parse(text),
            Err(PositionError::BadCount {
                slot,
                text: bad.into()
            }),
            "{text}"
        );
    }
    assert_eq!(
        parse("200,50,0,0,0,0,0,0,0,0,0,0,1,5 S"),
        Err(PositionError::TooManySeeds(256))
    );
    // Majority reached (OW-6.1) with a side letter; accepted under majority=off.
    assert_eq!(
        parse("1,0,0,0,0,0,25,1,0,0,0,0,0,21 N"),
        Err(PositionError::AlreadyOver {
            side: Side::North,
            end: PositionEnd::Majority
        })
    );
    assert!(OwarePosition::parse(rules("awari"), "1,0,0,0,0,0,25,1,0,0,0,0,0,21 N").is_ok());
    // No legal move (OW-6.3): North cannot feed South.
    assert_eq!(
        parse("0,0,0,0,0,0,20,1,1,0,0,0,0,22 N"),
        Err(PositionError::AlreadyOver {
            side: Side::North,
            end: PositionEnd::NoLegalMove
        })
    );
    // `-` with seeds in houses: refused under oware without the majority, accepted with it;
    // accepted under awari (split with repetition), refused with repetition off.
    assert_eq!(
        parse("1,0,0,0,0,0,23,1,0,0,0,0,0,23 -"),
        Err(PositionError::SeedsAfterEnd)
    );
    assert!(parse("1,0,0,0,0,0,25,1,0,0,0,0,0,21 -").is_ok());
    assert!(OwarePosition::parse(rules("awari"), "1,0,0,0,0,0,23,1,0,0,0,0,0,23 -").is_ok());
    assert_eq!(
        OwarePosition::parse(
            rules("awari+repetition=off"),
            "1,0,0,0,0,0,23,1,0,0,0,0,0,23 -"
        ),
        Err(PositionError::SeedsAfterEnd)
    );
    assert_eq!(
        OwarePosition::parse(rules("oware-openspiel"), "1,0,0,0,0,0,25,1,0,0,0,0,0,21 -"),
        Err(PositionError::SeedsAfterEnd)
    );
    // A layout with seeds past h.
    let mut layout = OwarePosition::start(rules("oware(3,3)")).layout();
    assert_eq!(layout.houses, [[3, 3, 3, 0, 0, 0, 0, 0]; 2]);
    layout.houses[1][4] = 1;
    assert_eq!(
        OwarePosition::try_from(layout),
        Err(PositionError::BeyondBoard {
            side: Side::North,
            house: 5,
            houses: 3
        })
    );
    assert_eq!(
        OwarePosition::new(rules("oware(2,2)"), &[2, 2, 0, 2, 2], Some(Side::South)),
        Err(PositionError::CountNumber {
            houses: 2,
            expected: 6,
            got: 5
        })
    );
    let from =
        OwareLayout::from_counts(rules("oware(2,2)"), &[1, 2, 0, 3, 4, 0], Some(Side::North));
    assert_eq!(
        from.unwrap().houses,
        [[1, 2, 0, 0, 0, 0, 0, 0], [3, 4, 0, 0, 0, 0, 0, 0]]
    );
    // Messages are one line.
    let msg = parse("1,0,0,0,0,0,25,1,0,0,0,0,0,21 N")
        .unwrap_err()
        .to_string();
    assert_eq!(
        msg,
        "North cannot be to move: the game is over, the majority is reached (OW-6.1)"
    );
    let msg = parse("4,4,4,\n,4 S").unwrap_err().to_string();
    assert!(!msg.contains('\n'), "{msg}");
}

#[test]
fn moves_and_records() {
    for (text, house) in [("3", 3), (" 6 ", 6), ("0", 0), ("255", 255), ("007", 7)] {
        assert_eq!(text.parse::<OwareMove>(), Ok(OwareMove(house)), "{text}");
    }
    assert_eq!(OwareMove(4).to_string(), "4");
    for text in ["", "256", "1000", "a", "-1", "+1", "3,4", "½"] {
        assert_eq!(
            text.parse::<OwareMove>(),
            Err(MoveParseError(text.trim().into())),
            "{text}"
        );
    }
    assert_eq!(
        "x".parse::<OwareMove>().unwrap_err().to_string(),
        "malformed move `x`: expected a house number"
    );
    assert_eq!(
        parse_moves("3,1,6 2").unwrap(),
        [OwareMove(3), OwareMove(1), OwareMove(6), OwareMove(2)]
    );
    assert_eq!(parse_moves(" 1 ,, 2\n3 ").unwrap().len(), 3);
    assert_eq!(parse_moves("").unwrap(), []);
    let e = parse_moves("1 2 x 4").unwrap_err();
    assert_eq!(
        e,
        RecordError {
            index: 3,
            source: MoveParseError("x".into())
        }
    );
    assert_eq!(
        e.to_string(),
        "move 3: malformed move `x`: expected a house number"
    );
}

#[test]
fn the_longest_position_fits_notation_max_bytes() {
    // 18 two-digit counts on oware(8,15) (OW-9.1): 36 digits, 17 commas, " S".
    let p =
        OwarePosition::parse(rules("oware(8,15)"), &format!("{} N", ["14"; 18].join(","))).unwrap();
    assert_eq!(p.to_string().len(), 55);
    assert_eq!(NOTATION_MAX_BYTES, 55);
}

/// `text` with the case of its ASCII letters flipped where the bits of `case` (cycled) are set.
fn random_case(text: &str, case: u64) -> String {
    text.chars()
        .enumerate()
        .map(|(i, c)| {
            if case >> (i % 64) & 1 == 1 {
                if c.is_ascii_lowercase() {
                    c.to_ascii_uppercase()
                } else {
                    c.to_ascii_lowercase()
                }
            } else {
                c
            }
        })
        .collect()
}

/// Pieces of the notations, for texts that are almost right.
const PIECES: &[&str] = &[
    "oware",
    "awari",
    "oware-openspiel",
    "(",
    ")",
    ",",
    "+",
    "=",
    " ",
    "6",
    "4",
    "0",
    "255",
    "256",
    "999999",
    "1234567",
    "grand_slam",
    "majority",
    "repetition",
    "cycle_score",
    "move_limit",
    "none",
    "all",
    "unless_only",
    "off",
    "split",
    "own_row",
    "S",
    "N",
    "-",
    "é",
    "\n",
    "\0",
    "½",
    "65535",
    "65536",
    "9",
];

fn near_miss() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(PIECES), 0..24).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// No parser panics on any text; whatever parses prints to a text that parses back to it.
    #[test]
    fn parsers_never_panic(text in prop_oneof![any::<String>(), near_miss(), "[ -~]{0,60}"]) {
        if let Ok(r) = text.parse::<OwareRules>() {
            prop_assert_eq!(r.to_string().parse::<OwareRules>(), Ok(r));
        }
        for r in [OwareRules::default(), OwareRules::AWARI, OwareRules::new(2, 2).unwrap()] {
            if let Ok(p) = OwarePosition::parse(r, &text) {
                prop_assert_eq!(OwarePosition::parse(r, &p.to_string()), Ok(p));
            }
        }
        if let Ok(m) = text.parse::<OwareMove>() {
            prop_assert_eq!(m.to_string().parse::<OwareMove>(), Ok(m));
        }
        let _ = parse_moves(&text);
        for e in [text.parse::<OwareRules>().err().map(|e| e.to_string()),
                  OwarePosition::parse(OwareRules::default(), &text).err().map(|e| e.to_string())]
            .into_iter().flatten() {
            prop_assert!(!e.contains('\n'), "{}", e);
        }
    }

    /// Random rule sets round-trip through their canonical text, in any letter case.
    #[test]
    fn rule_sets_round_trip(
        head in proptest::sample::select(OwareRuleSet::ALL.to_vec()),
        h in 1u32..=8, s in 1u32..=127,
        picks in proptest::collection::vec(any::<(bool, u32)>(), 5),
        case in any::<u64>(),
    ) {
        let s = 1 + (s - 1) % (255 / (2 * h));
        let mut text = format!("{}({h},{s})", head.name());
        for (option, (on, pick)) in OwareOption::ALL.iter().zip(picks) {
            if !on { continue; }
            let info = option.info();
            let value = match info.numbers {
                Some((lo, hi)) if pick % 2 == 0 => (lo + pick / 2 % (hi - lo + 1)).to_string(),
                _ => info.words[pick as usize % info.words.len()].to_string(),
            };
            text.push_str(&format!("+{}={value}", info.name));
        }
        let r: OwareRules = text.parse().unwrap();
        prop_assert_eq!((u32::from(r.houses()), u32::from(r.seeds())), (h, s));
        let canonical = r.to_string();
        prop_assert_eq!(canonical.to_lowercase(), canonical.clone());
        prop_assert_eq!(canonical.parse::<OwareRules>(), Ok(r));
        prop_assert_eq!(random_case(&text, case).parse::<OwareRules>(), Ok(r));
        // The canonical text never prints more options than the input had.
        prop_assert!(canonical.matches('+').count() <= text.matches('+').count());
    }
}
