# Thin aliases for ./dev.sh (which needs nothing but sh and Python 3.11+).
.PHONY: run test lint sweep-long bench eval package
run:
	./dev.sh run
test:
	./dev.sh test
package:
	./dev.sh package
lint:
	.venv/bin/ruff check agent_core desktop tests benchmarks
	.venv/bin/ruff format --check agent_core desktop tests benchmarks
	.venv/bin/python -m mypy
	.venv/bin/lint-imports
sweep-long:
	BRIEFDESK_SWEEP_RANDOM_KILLS=20 ./dev.sh test tests/drills/test_crash_sweep.py tests/drills/test_lifecycle_model.py -s
# Every benchmark, side by side; writes the table to benchmarks/README.md.
bench:
	./dev.sh bench
# The offline brief's evaluation (tests/eval): recall, precision, citations, injections.
eval:
	.venv/bin/python tests/eval/run_eval.py
