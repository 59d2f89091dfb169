"""SQL:2016 row pattern matching for the patterns only the standard has (alternation, groups, PERMUTE,
anchors, exclusion, empty matches, `??`, a greedy last element).

The pattern is compiled to a small program (VAR, SPLIT, JMP, loops with counters, anchors, exclusion
marks, MATCH) and run as a Pike VM whose thread list is kept in preference order: greedy quantifiers
prefer more iterations, reluctant ones fewer, alternation its left branch, PERMUTE its permutations in
lexicographic order. From one start row the first thread (in preference order) that reaches MATCH
wins once every more-preferred thread has died, which is the standard's 'preferred match'. DEFINE
conditions see the rows matched so far on the thread's own path (running semantics)."""

from itertools import permutations

from planner.match_recognize.spec import (Alternation, Anchor, Concat, Empty, Exclusion, Group, Permute,
                                          Quantified, Var)

VAR, SPLIT, JMP, MATCH, ASTART, AEND, EXCL, LINIT, LOOP, LEND = range(10)


class Program:
    def __init__(self, pattern, var_ids):
        self.code = []
        self.var_ids = var_ids
        self.n_loops = 0
        self.emit(pattern)
        self.code.append((MATCH,))

    def emit(self, node):
        code = self.code
        if node is None or isinstance(node, Empty):
            return
        if isinstance(node, Var):
            code.append((VAR, self.var_ids[node.name]))
        elif isinstance(node, Group):
            self.emit(node.body)
        elif isinstance(node, Concat):
            for i in node.items:
                self.emit(i)
        elif isinstance(node, Alternation):
            self._alternatives(node.options)
        elif isinstance(node, Permute):
            options = [Concat(items=[node.items[i] for i in perm]) for perm in permutations(range(len(node.items)))]
            self._alternatives(options)
        elif isinstance(node, Anchor):
            code.append((ASTART,) if node.kind == "^" else (AEND,))
        elif isinstance(node, Exclusion):
            code.append((EXCL, 1))
            self.emit(node.body)
            code.append((EXCL, -1))
        elif isinstance(node, Quantified):
            k = self.n_loops
            self.n_loops += 1
            code.append((LINIT, k))
            loop_pc = len(code)
            code.append(None)   # patched below
            self.emit(node.body)
            code.append((LEND, k, loop_pc))
            code[loop_pc] = (LOOP, k, node.min, node.max, node.greedy, loop_pc + 1, len(code))
        else:
            raise ValueError("Unknown pattern node %r" % node)

    def _alternatives(self, options):
        code = self.code
        jumps = []
        for i, opt in enumerate(options):
            if i < len(options) - 1:
                split_pc = len(code)
                code.append(None)
                self.emit(opt)
                jumps.append(len(code))
                code.append(None)
                code[split_pc] = (SPLIT, split_pc + 1, len(code))
            else:
                self.emit(opt)
        for j in jumps:
            code[j] = (JMP, len(code))


class StandardMatcher:
    def __init__(self, program, defines, factory):
        self.code = program.code
        self.n_loops = program.n_loops
        self.defines = defines
        self.factory = factory
        self.origin = 0     # partition index of the buffer's first row (streaming trims the buffer)

    def _closure(self, pc, step, cnts, marks, excl, pos, at_end, out, visited):
        """Follow epsilon instructions from pc in preference order; append waiting threads to out.
        Returns True when MATCH was reached (the caller then drops less preferred threads)."""
        code = self.code
        while True:
            key = (pc, cnts, excl)
            if key in visited:
                return False
            visited.add(key)
            ins = code[pc]
            op = ins[0]
            if op == VAR:
                out.append((pc, step, cnts, marks, excl))
                return False
            if op == MATCH:
                out.append((pc, step, cnts, marks, excl))
                return True
            if op == JMP:
                pc = ins[1]
            elif op == SPLIT:
                if self._closure(ins[1], step, cnts, marks, excl, pos, at_end, out, visited):
                    return True
                pc = ins[2]
            elif op == ASTART:
                if pos + self.origin != 0:
                    return False
                pc += 1
            elif op == AEND:
                if not at_end:
                    out.append((pc, step, cnts, marks, excl))
                    return False
                pc += 1
            elif op == EXCL:
                excl += ins[1]
                pc += 1
            elif op == LINIT:
                k = ins[1]
                cnts = cnts[:k] + (0,) + cnts[k + 1:]
                pc += 1
            elif op == LOOP:
                _, k, lo, hi, greedy, body, exit_pc = ins
                c = cnts[k]
                can_enter = hi is None or c < hi
                can_exit = c >= lo
                entered = marks[:k] + (pos,) + marks[k + 1:]
                if can_enter and can_exit:
                    first, second = ((body, entered), (exit_pc, marks)) if greedy else ((exit_pc, marks), (body, entered))
                    if self._closure(first[0], step, cnts, first[1], excl, pos, at_end, out, visited):
                        return True
                    pc, marks = second
                elif can_enter:
                    pc, marks = body, entered
                elif can_exit:
                    pc = exit_pc
                else:
                    return False
            elif op == LEND:
                _, k, loop_pc = ins
                c = cnts[k] + 1
                if marks[k] == pos and c > self.code[loop_pc][2]:
                    return False        # an empty iteration beyond the minimum would loop forever
                cnts = cnts[:k] + (c,) + cnts[k + 1:]
                pc = loop_pc

    def match_from(self, s, n, data, ts, within, match_number, final=True):
        """-> ('match', last Step or None for an empty match) | ('fail', None) | ('pending', None)."""
        zero = (0,) * self.n_loops
        threads = []
        matched = None
        root = self.factory.root
        if self._closure(0, root, zero, zero, 0, s, final and s >= n, threads, set()):
            matched = ("match", _real(threads.pop()[1]))
        t0 = ts[s] if (ts is not None and s < n) else None
        defines = self.defines
        extend = self.factory.extend
        code = self.code
        r = s
        while threads:
            if r >= n:
                if not final:
                    return "pending", None
                for th in threads:          # end of the partition: anchors '$' may pass now
                    pc, step, cnts, marks, excl = th
                    if code[pc][0] == AEND:
                        out = []
                        if self._closure(pc + 1, step, cnts, marks, excl, r, True, out, set()):
                            return "match", _real(out[-1][1])
                return matched or ("fail", None)
            if within is not None and ts[r] - t0 >= within:
                return matched or ("fail", None)
            nxt = []
            for th in threads:
                pc, step, cnts, marks, excl = th
                ins = code[pc]
                if ins[0] != VAR:
                    continue            # AEND before the last row: dies
                v = ins[1]
                f = defines[v]
                if f is None or f(step, r, s, match_number, data) is True:
                    cand = extend(step, r, v, data, excl > 0)
                    out = []
                    hit = self._closure(pc + 1, cand, cnts, marks, excl, r + 1, final and r + 1 >= n, out, set())
                    if hit:
                        matched = ("match", _real(out.pop()[1]))
                        nxt.extend(out)
                        break
                    nxt.extend(out)
            threads = nxt
            r += 1
        return matched or ("fail", None)


def _real(step):
    """The last Step of a match, or None for an empty match."""
    return None if step is None or step.row is None else step
