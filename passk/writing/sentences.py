"""Results in sentences: a benchmark's size and statuses, and two runs' curves over k (the lead at k = 1, the
crossing, and where the band says A is ahead, behind or undecided, with the first k where A may lose)."""

from passk.grammar import plural
from passk.results.benchmark import Summary
from passk.results.curves import CurveComparison, Interval, ranges_text, sign_of
from passk.writing.display import points


def sizes(summary: Summary) -> str:
    """'40 problems, 400 samples (n = 10)', or 'n from 5 to 10' where the problems' n differ."""
    low, high = summary.min_n, summary.max_n
    ns = f"n = {low:,}" if low == high else f"n from {low:,} to {high:,}"
    return f"{plural(len(summary.problems), 'problem')}, {plural(summary.samples, 'sample')} ({ns})"


def statuses(summary: Summary, separator: str = " · ") -> str:
    """'6 broken (c = 0) · 28 flaky · 6 solid (c = n)', the parts joined by separator."""
    return separator.join([f"{summary.broken:,} broken (c = 0)", f"{summary.flaky:,} flaky",
                           f"{summary.solid:,} solid (c = n)"])


def crossover_sentences(result: CurveComparison) -> list[str]:
    """What the curves say, in sentences: the lead at k = 1 and where it stops being significant, and whether
    and where the curves cross."""
    names = {"A": result.names[0], "B": result.names[1]}
    first, last = result.points[0], result.points[-1]
    if first.band is None:
        lead = "With one paired problem there is no band, so no lead is significant."
    elif result.leader is None:
        lead = (f"Neither run is significantly ahead at k = 1: A − B is {_points(first.difference)} and its "
                f"simultaneous 95% band ({_band_text(first.band)}) holds 0.")
    else:
        lead = (f"{_capital(names[result.leader])} is ahead at k = 1 by "
                f"{_points(abs(first.difference), signed=False)} (A − B's simultaneous 95% band "
                f"{_band_text(first.band)}); ")
        lost = next((point for point in result.points if point.k == result.lead_lost_at), None)
        shown = "" if len(result.points) == last.k else " of the ks shown"
        lead += (f"its lead is no longer significant from k = {lost.k:,}{shown} (band {_band_text(lost.band)})."
                 if lost and lost.band else f"its lead stays significant at every k shown, up to k = {last.k:,}.")
    return [lead, _crossing_sentence(result, names), *standing_sentences(result)]


def standing_sentences(result: CurveComparison) -> list[str]:
    """Where A is significantly ahead, behind and undecided, and the 95% confidence set for the first k where A
    loses (none without a band)."""
    if result.points[0].band is None:
        return []
    name_a, name_b = result.names
    last = result.points[-1].k
    shown = "" if result.every_k else f" (of the {len(result.points)} ks shown)"
    parts = [f"{standing} at {'k = ' if index == 0 else ''}{ks}"
             for index, (standing, _, ks) in enumerate(result.standing_regions())]
    standing = f"By the simultaneous 95% band, {name_a} against {name_b}: {', '.join(parts)}{shown}."
    first_loss, never = result.first_loss or [], result.may_never_lose
    if not first_loss:
        loss = (f"{_capital(name_a)} never loses to {name_b} up to k = {last:,}{shown}, with 95% confidence: the "
                f"band's low end is 0 or above at every k.")
    elif never:
        loss = (f"If {name_a} loses to {name_b} at all up to k = {last:,}, the first k where it does is in "
                f"{ranges_text(first_loss)}{shown}, with 95% confidence; it may also never lose.")
    else:
        loss = (f"{_capital(name_a)} first loses to {name_b} (A − B below 0) at some k in {ranges_text(first_loss)}"
                f"{shown}, with 95% confidence.")
    return [standing, loss]


def _crossing_sentence(result: CurveComparison, names: dict[str, str]) -> str:
    """Whether and where the curves cross, with the crossing's interval from the band."""
    crossing, last = result.crossing, result.points[-1]
    everywhere = "every k" if len(result.points) == last.k else f"each of the {len(result.points)} ks shown"
    if crossing is None:
        signs = {sign_of(point.difference) for point in result.points} - {0}
        if not signs:
            return f"The curves do not cross: A − B is 0 at {everywhere} from 1 to {last.k:,}."
        above = "above" if signs == {1} else "below"
        return (f"The curves do not cross within k = 1 … {last.k:,}: run A's curve stays {above} run B's "
                f"(or level with it) at {everywhere}.")
    before, after = crossing.before, "B" if crossing.before == "A" else "A"
    sentence = (f"The curves cross at k = {crossing.k:,}: there A − B turns "
                f"{'negative' if after == 'B' else 'positive'}, and {names[after]} is ahead. ")
    if crossing.high is None:
        since = (f"after k = {crossing.low:,}, the last k where {names[before]} is significantly ahead"
                 if crossing.low else "anywhere from k = 1")
        return sentence + (f"With 95% simultaneous confidence it lies {since}; {names[after]} is never "
                           f"significantly ahead up to k = {last.k:,}, so the curves may not cross at all.")
    since = (f"k = {crossing.low:,}, the last k where {names[before]} is significantly ahead," if crossing.low
             else f"k = 1 ({names[before]} is never significantly ahead before it)")
    return sentence + (f"With 95% simultaneous confidence the crossing lies between {since} and "
                       f"k = {crossing.high:,}, the first where {names[after]} is.")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _points(value: float, signed: bool = True) -> str:
    return points(value, signed, unit="points")


def _band_text(band: Interval) -> str:
    return f"{_points(band[0])} to {_points(band[1])}"
