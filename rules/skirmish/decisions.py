"""Deciding moves whose outcomes depend on one another: Kruijswijk's guess-and-check ("The
Math of Adjudication"), without recursion, so that a position of any depth is decided (a
ring of a thousand moves asks a thousand deep)."""

# A move's state in `Decisions._state`; a subclass may mark a move DECIDED itself when its
# outcome depends on no other move.
_UNDECIDED, _GUESSING, DECIDED = 0, 1, 2


class _Undecided(Exception):
    """A decision asked about move `move`, which is not decided yet."""

    def __init__(self, move: int) -> None:
        super().__init__(move)
        self.move = move


class Decisions:
    """Whether each of `count` moves arrives. A subclass takes one move's decision in
    `_arrives`, asking about the other moves it depends on through `decision`."""

    def __init__(self, count: int) -> None:
        self._state = [_UNDECIDED] * count
        self._result = [False] * count
        self._in_cycle = [False] * count
        self._cycle: list[int] = []

    def _arrives(self, i: int) -> bool:
        """Whether move i arrives, given what `decision` says of the others."""
        raise NotImplementedError

    def decision(self, i: int) -> bool:
        """Whether move i arrives, as far as it is known: decided, or guessed while a cycle
        through it is checked (which marks it part of the cycle). Raises `_Undecided` for a
        move not yet decided, which the decision that asked then waits for (`decide`)."""
        state = self._state[i]
        if state == DECIDED:
            return self._result[i]
        if state == _UNDECIDED:
            raise _Undecided(i)
        if not self._in_cycle[i]:
            self._in_cycle[i] = True
            self._cycle.append(i)
        return self._result[i]

    def decide(self, start: int) -> None:
        """Decides move `start` (if not yet decided) and every undecided move that its
        decision asks about.

        A decision that meets an undecided move waits on a stack until that move is decided,
        then starts again from the beginning, asking again only questions whose answers are
        now known. Each decision begins by guessing that its move fails; when the answer
        depends on that guess (a cycle), it is taken again guessing that the move arrives.
        """
        states, results, cycle = self._state, self._result, self._cycle
        if states[start] == DECIDED:
            return
        mark = len(cycle)
        results[start], states[start] = False, _GUESSING
        # Most decisions meet neither an undecided move nor a cycle: settled at once.
        try:
            answer = self._arrives(start)
        except _Undecided:
            pass
        else:
            if len(cycle) == mark:
                results[start], states[start] = answer, DECIDED
                return
        # Otherwise taken again from the beginning on the stack, which asks the same
        # questions and gets the same answers so far.
        self._decide_waiting(start, mark)

    def _decide_waiting(self, start: int, mark: int) -> None:
        states, results, cycle, in_cycle = self._state, self._result, self._cycle, self._in_cycle
        # The decisions under way: the move, the length of `cycle` when its decision began,
        # and the answer it got from the first guess (None while taking that guess).
        waiting: list[tuple[int, int, bool | None]] = [(start, mark, None)]
        while waiting:
            i, mark, first = waiting[-1]
            try:
                answer = self._arrives(i)
            except _Undecided as undecided:
                j = undecided.move
                waiting.append((j, len(cycle), None))
                results[j], states[j] = False, _GUESSING
                continue
            if first is None:
                if len(cycle) == mark:
                    # A cycle settled further up the stack may already have decided i.
                    if states[i] != DECIDED:
                        results[i], states[i] = answer, DECIDED
                elif cycle[mark] != i:
                    # Part of a cycle that a decision lower on the stack started; that
                    # decision will settle i.
                    in_cycle[i] = True
                    cycle.append(i)
                    results[i] = answer
                else:
                    self._forget_guesses(mark)
                    results[i], states[i] = True, _GUESSING
                    waiting[-1] = (i, mark, answer)
                    continue
            elif first == answer:
                self._forget_guesses(mark)
                results[i], states[i] = answer, DECIDED
            else:
                # Two consistent answers (guess False gave False, guess True gave True) is
                # a circular movement: everyone in it moves. No consistent answer cannot
                # happen with armies on land; should it, the moves in the cycle fail.
                for j in cycle[mark:]:
                    results[j], states[j], in_cycle[j] = answer, DECIDED, False
                del cycle[mark:]
            waiting.pop()

    def _forget_guesses(self, mark: int) -> None:
        for j in self._cycle[mark:]:
            self._state[j], self._in_cycle[j] = _UNDECIDED, False
        del self._cycle[mark:]
