"""What the benchmarks say about the machine they ran on."""

import platform


def cpu_model(cpuinfo_path: str = "/proc/cpuinfo") -> str:
    """The CPU's model name (the first processor's "model name" in /proc/cpuinfo), else what the
    platform module knows, else "unknown CPU"."""
    try:
        with open(cpuinfo_path) as file:
            for line in file:
                key, _, value = line.partition(":")
                if key.strip() == "model name" and value.strip():
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"
