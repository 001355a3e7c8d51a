"""What the figures were measured on: printed by the demo, stored with results."""

import datetime
import os
import platform

import libraries


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith(("model name", "Model name", "cpu model")):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def load_average() -> float:
    """The 1-minute load average: above the core count, other processes
    compete for the CPUs and wall-clock figures suffer."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return -1.0


def info() -> dict:
    """CPU, cores, OS, Python, library versions, isojson backend, UTC date."""
    versions = {}
    for name in libraries.PER_CALL_LIBRARIES:
        try:
            lib = libraries.load(name)
            versions[name] = lib.version if lib.module == name else f"{lib.module} {lib.version}"
        except ImportError as e:
            versions[name] = f"missing ({e})"
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "machine": platform.machine(),
        "os": f"{platform.system()} {platform.release()}",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "versions": versions,
        "isojson_backend": libraries.isojson_backend(),
        "isojson_backends": list(libraries.isojson_backends()),
        "load_average": load_average(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }


def summary(m: dict) -> str:
    """One line for the top of a report."""
    iso = m["versions"].get("isojson", "?")
    backend = f", backend {m['isojson_backend']}" if m["isojson_backend"] else ""
    return (f"{m['cpu']} ({m['cores']} cores, {m['machine']}), {m['os']}, {m['python']}; "
            f"isojson {iso}{backend}; orjson {m['versions'].get('orjson', '?')}; {m['date']}")
