//! The letter-case rule of `docs/notation.md` ("Letter case"): every keyword (rule-set and
//! option names, option values, side letters, kuus, `swap`, Bao la Kete move letters) is read
//! in any ASCII case and printed in the canonical case; the reserved pit of a Bao la Kete
//! position keeps its case, which names its owner.
//!
//! The canonical texts below are written from the page's grammar (lower-case names, `S`/`N`,
//! `swap`, upper-case Bao la Kete move letters), not taken from the code's output; the random
//! round trips are in `kalah_reference.rs` and `bao_props.rs`.

use mancala_core::bao::{BaoMove, BaoPosition, BaoRules};
use mancala_core::kalah::{KalahMove, KalahPosition, KalahRules};

fn parse_moves(text: &str) -> Result<Vec<KalahMove>, mancala_core::RecordError<KalahPosition>> {
    mancala_core::parse_moves::<KalahPosition>(text)
}
use mancala_core::Rules;

#[test]
fn kalah_rule_sets_in_any_case() {
    for (text, canonical) in [
        ("KALAH(6,4)+EMPTY_CAPTURE", "kalah(6,4)+empty_capture"),
        (
            "Kalah(4,3)+Pie_Rule+END_WHEN_NO_MOVE",
            "kalah(4,3)+end_when_no_move+pie_rule",
        ),
        ("STANDARD", "standard"),
        ("Manchester", "manchester"),
        ("KALAH(7,7)+PIE_RULE+NO_FIRST_MOVE_BONUS", "manchester"),
    ] {
        let r: KalahRules = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(r.to_string(), canonical, "{text}");
        assert_eq!(canonical.parse::<KalahRules>(), Ok(r));
        let any: Rules = text.parse().unwrap();
        assert_eq!(any.to_string(), canonical);
    }
}

#[test]
fn bao_rule_sets_in_any_case() {
    for (text, canonical) in [
        ("BAO-LA-KETE", "bao-la-kete"),
        ("bao-la-kete+SAFARI=choice", "bao-la-kete+safari=choice"),
        ("bao-la-kete+safari=CHOICE", "bao-la-kete+safari=choice"),
        ("Bao-La-Kete+First=n", "bao-la-kete+first=N"),
        (
            "bao-la-kete+kuu_lap_exempt=OFF+Singleton_Exempt=On",
            "bao-la-kete+kuu_lap_exempt=off+singleton_exempt=on",
        ),
        ("bao-la-kete+safari=Forced+first=s", "bao-la-kete"),
    ] {
        let r: BaoRules = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(r.to_string(), canonical, "{text}");
        let any: Rules = text.parse().unwrap();
        assert_eq!(any.to_string(), canonical);
    }
    // Not keywords in another case: still refused.
    for text in [
        "bao-la-kete+safari=chOIce2",
        "bao-la-kete+first=x",
        "bao-la-kete+lap_cap=1e3",
    ] {
        assert!(text.parse::<BaoRules>().is_err(), "{text}");
    }
}

#[test]
fn kalah_positions_and_moves_in_any_case() {
    let standard = KalahRules::standard();
    let start = "4,4,4,4,4,4,0,4,4,4,4,4,4,0 S";
    let p = KalahPosition::parse(standard, "4,4,4,4,4,4,0,4,4,4,4,4,4,0 s").unwrap();
    assert_eq!(p.to_string(), start);
    assert_eq!(p, KalahPosition::start(standard));
    // After South's house 1 under the pie rule (Kalah(6,4), no extra turn: 4 seeds from house
    // 1 reach houses 2..5), North may swap.
    let pie: KalahRules = "kalah(6,4)+pie_rule".parse().unwrap();
    let canonical = "0,5,5,5,5,4,0,4,4,4,4,4,4,0 N swap";
    for text in [
        "0,5,5,5,5,4,0,4,4,4,4,4,4,0 N SWAP",
        "0,5,5,5,5,4,0,4,4,4,4,4,4,0 n Swap",
        canonical,
    ] {
        let q = KalahPosition::parse(pie, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(q.to_string(), canonical);
        assert_eq!(
            q,
            KalahPosition::start(pie).play(KalahMove::House(1)).unwrap()
        );
    }
    for text in ["swap", "SWAP", "Swap", " sWaP "] {
        assert_eq!(text.parse::<KalahMove>(), Ok(KalahMove::Swap), "{text}");
    }
    assert_eq!(KalahMove::Swap.to_string(), "swap");
    assert_eq!(
        parse_moves("3,1,SWAP,2").unwrap(),
        parse_moves("3,1,swap,2").unwrap()
    );
    // Other letters are still refused.
    for text in [
        "4,4,4,4,4,4,0,4,4,4,4,4,4,0 X",
        "4,4,4,4,4,4,0,4,4,4,4,4,4,0 S SWAPS",
    ] {
        assert!(KalahPosition::parse(standard, text).is_err(), "{text}");
    }
}

#[test]
fn bao_positions_and_moves_in_any_case() {
    let start = "0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22,22 SN S -";
    let lower = "0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22,22 sn s -";
    let p: BaoPosition = lower.parse().unwrap();
    assert_eq!(p.to_string(), start);
    assert_eq!(p, BaoPosition::start(BaoRules::LAMU));
    for (text, canonical) in [
        ("f6>", "F6>"),
        ("b2<", "B2<"),
        ("F3l+", "F3L+"),
        ("f3r.", "F3R."),
    ] {
        let mv: BaoMove = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(mv.to_string(), canonical);
        assert_eq!(canonical.parse::<BaoMove>(), Ok(mv));
    }
    // The reserved pit keeps its case: `f4` is North's pit, `F4` South's; the same text
    // with `F4` is another position or none.
    let z = "0,0,0,0,0,0,0,0";
    let north = format!("2,0,2,1,1,0,0,0/{z}/1,0,0,2,0,1,0,0/54,0,0,0,0,0,0,0 0,0 - S f4");
    let a: BaoPosition = north.parse().unwrap();
    assert!(a.to_string().ends_with(" - S f4"), "{a}");
    let lower_rest = north.replace(" - S f4", " - s f4");
    assert_eq!(lower_rest.parse::<BaoPosition>(), Ok(a));
    assert_ne!(
        north.replace(" f4", " F4").parse::<BaoPosition>().ok(),
        Some(a)
    );
    assert!(start
        .replace(" SN ", " NX ")
        .parse::<BaoPosition>()
        .is_err());
}
