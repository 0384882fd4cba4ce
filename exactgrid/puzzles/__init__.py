"""The other puzzles of the seed documents, each a thin layer over the shared engine (boards,
word lists, the finder, the boolean model and its backends): Trackword, Letter Boxed, Sum of
Squares. Each module holds one puzzle's rules, its solvers and its answer type."""
