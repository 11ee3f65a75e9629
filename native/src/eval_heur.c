/* eval_heur.c: level 1, a hand-written judgement in the 1983 spirit: hit, make points
 * (home board and the bar-point first), keep blots out of direct range, run and bear off
 * when ahead in the race. No net, no look-ahead; fast and beatable by design. */
#include "eval.h"

/* Score of the position the mover has just made (mover still in row 0); higher is better. */
float ev_heuristic(const mg_board *b) {
    const int8_t *me = b->b[0], *op = b->b[1];
    int my_pips = mg_pips(b, 0), op_pips = mg_pips(b, 1);
    int racing = 0;
    {   /* no contact left: only running matters */
        int back0 = -1, back1 = -1;
        for (int i = 24; i >= 0; i--) if (me[i]) { back0 = i; break; }
        for (int i = 24; i >= 0; i--) if (op[i]) { back1 = i; break; }
        racing = back0 <= 23 - back1;
    }
    int off = 15;
    for (int i = 0; i < 25; i++) off -= me[i];
    float score = 0.0f;
    score += 0.6f * (float)off;
    if (racing) return score - 0.05f * (float)my_pips;
    /* hits */
    score += 2.5f * (float)op[24];
    /* made points */
    for (int i = 0; i < 24; i++) {
        if (me[i] < 2) continue;
        if (i < 6) score += 1.2f;
        else if (i < 8) score += 1.0f;
        else if (i < 12) score += 0.4f;
        else if (i >= 18) score += 0.3f;
        else score += 0.2f;
        if (me[i] > 3) score -= 0.1f * (float)(me[i] - 3);   /* stacks waste men */
    }
    /* blots within reach of an opposing man behind them */
    for (int i = 0; i < 24; i++) {
        if (me[i] != 1) continue;
        int nearest = 99;
        if (op[24]) nearest = 24 - i;   /* an entering man lands on our index 24 - die */
        for (int j = 0; j < 24; j++) {
            if (!op[j]) continue;
            int pos = 23 - j;          /* the opposing man stands on our index pos */
            if (pos > i && pos - i < nearest) nearest = pos - i;
        }
        float weight = (i < 6) ? 1.3f : 1.0f;
        if (nearest <= 6) score -= 1.4f * weight;
        else if (nearest <= 12) score -= 0.6f * weight;
    }
    /* run when ahead: the lead after this play decides how keen we are to get home */
    int lead = op_pips - my_pips;
    float run = lead > 10 ? 0.03f : 0.01f;
    score -= run * (float)my_pips;
    int back = me[24];
    for (int i = 18; i < 24; i++) back += me[i];
    if (lead > 10) score -= 0.4f * (float)back;
    return score;
}
