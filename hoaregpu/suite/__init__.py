"""Running GPUVerify-style test suites: headers (`header.py`), one kernel per worker process
(`worker.py`), agreement with the expected verdicts (`runner.py`); `hoaregpu suite` prints it."""
