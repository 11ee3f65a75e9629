"""Level 5's deeper stages as its search tests look at them: the cases (positions from seeded
random play, 6-5 and 3-1 to play by turns), and the check that a deeper stage (the 3-ply pass,
the rollouts) rejudged only the closest candidates and left the rest as they were. Used by the
search's determinism and rollout tests. Not a test."""
from shared_cases import positions_from_play


def search_cases(n, seed):
    """`n` (position, dice) from seeded play: 3-1 and 6-5 by turns."""
    return [(pos, (6, 5) if i % 2 else (3, 1))
            for i, pos in enumerate(positions_from_play(n, seed=seed))]


def rejudged_closest(before, after, new_ply, keep, margin) -> bool:
    """Checks a deeper stage of level 5 (rankings of (position ID, equity, ply) before and
    after it): either it judged nothing and changed nothing, or it judged at least two (never
    one alone: nothing to compare), all among the `keep` best of the deepest judged before
    within `margin` of the leader, ranked them first and left the rest as they were. True
    when it judged some."""
    deep = {pid for pid, _, ply in after if ply == new_ply}
    if not deep:
        assert after == before
        return False
    assert 2 <= len(deep) <= keep
    deepest, leader_eq = before[0][2], before[0][1]
    closest = {pid for pid, eq, ply in before[:keep]
               if ply == deepest and leader_eq - eq <= margin + 1e-6}
    assert deep <= closest
    assert [c[2] for c in after[:len(deep)]] == [new_ply] * len(deep)
    assert [c for c in after if c[0] not in deep] == [c for c in before if c[0] not in deep]
    return True
