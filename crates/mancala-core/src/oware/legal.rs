//! The legal moves of OW-5 on the packed position, as a mask of houses.

use super::position::OwarePosition;
use super::rules::GrandSlam;
use super::tables::FOUR_OR_MORE;

impl OwarePosition {
    /// The legal-move mask (bit i − 1 for house i) of the side to move on a board of `H`
    /// houses a side (`H` = `self.rules().houses()`), the game not being over:
    ///
    /// * OW-5.4: no seed in the mover's row, no move;
    /// * OW-5.1: under every `grand_slam` but `unless_only`, an empty opponent row admits only
    ///   the moves that feed it (OW-2.5);
    /// * OW-5.2, OW-4.2: under `forbidden`, grand slams are taken out;
    /// * OW-5.3: under `unless_only`, the moves that leave the opponent's row empty are taken
    ///   out unless every move does so.
    ///
    /// A grand slam or an eradicating move needs every opponent house to end the sowing at 0,
    /// 2 or 3, and a sowing never takes seeds from a house, so when an opponent house holds 4
    /// or more no move is either, and the moves are not simulated.
    #[inline(always)]
    pub(super) fn legal_mask_const<const H: usize>(&self) -> u8 {
        let own = self.own_nonempty();
        if own == 0 {
            return 0;
        }
        let opp = self.opp;
        // The common case first, the same under every option: an opponent house holds 4 or
        // more seeds, so his row is not empty (nothing to feed) and no move is a grand slam
        // or eradicating (see above).
        if opp & FOUR_OR_MORE != 0 {
            return own;
        }
        let feeding = || {
            let mut m = own;
            let mut out = 0;
            while m != 0 {
                let k = m.trailing_zeros() as usize;
                if self.feeds(k) {
                    out |= 1 << k;
                }
                m &= m - 1;
            }
            out
        };
        match self.rules.grand_slam() {
            GrandSlam::None | GrandSlam::All | GrandSlam::LeaveLast => {
                if opp == 0 {
                    feeding()
                } else {
                    own
                }
            }
            GrandSlam::Forbidden => {
                let candidates = if opp == 0 { feeding() } else { own };
                if opp & FOUR_OR_MORE != 0 {
                    return candidates;
                }
                let mut m = candidates;
                let mut out = 0;
                while m != 0 {
                    let k = m.trailing_zeros() as usize;
                    if !self.is_grand_slam_const::<H>(k) {
                        out |= 1 << k;
                    }
                    m &= m - 1;
                }
                out
            }
            GrandSlam::UnlessOnly => {
                if opp & FOUR_OR_MORE != 0 {
                    return own;
                }
                let mut m = own;
                let mut keep = 0;
                while m != 0 {
                    let k = m.trailing_zeros() as usize;
                    if !self.eradicates_const::<H>(k) {
                        keep |= 1 << k;
                    }
                    m &= m - 1;
                }
                if keep != 0 {
                    keep
                } else {
                    own
                }
            }
        }
    }
}
