"""deploy/docker: the images cannot be built here (no Docker engine), so the Dockerfiles are read as
text: every instruction is one Docker knows, every base image and pip pin is exact, the serving
image's TensorRT-LLM is the release the model repository was checked against, and the app image
installs the Debian packages `make system-packages` does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[3]
DOCKER = REPO_ROOT / "deploy" / "docker"
DOCKERFILES = sorted(DOCKER.glob("*.Dockerfile"))
INSTRUCTIONS = {
    "ADD", "ARG", "CMD", "COPY", "ENTRYPOINT", "ENV", "EXPOSE", "FROM", "HEALTHCHECK", "LABEL",
    "ONBUILD", "RUN", "SHELL", "STOPSIGNAL", "USER", "VOLUME", "WORKDIR",
}  # fmt: skip
TRTLLM_VERSION = "1.3.0rc29"  # model_repo/TENSORRT_LLM.md: the release the sources were read for
EXACT_TAG = re.compile(r"^[\w./-]+:\d+(\.\d+)+[\w.-]*$")  # a version tag, never latest or a major only


def _instructions(path: Path) -> list[tuple[str, str]]:
    """``(INSTRUCTION, arguments)`` with continuation lines joined and comments dropped."""
    joined, current = [], ""
    for line in path.read_text().splitlines():
        if not current and (not line.strip() or line.lstrip().startswith("#")):
            continue
        current += line.rstrip().removesuffix("\\") + " "
        if not line.rstrip().endswith("\\"):
            joined.append(current.strip())
            current = ""
    assert not current, f"{path.name}: a continuation line ends the file"
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in joined]


def _base_images(path: Path) -> list[str]:
    steps = _instructions(path)
    args = dict(re.match(r"(\w+)=(\S+)", a).groups() for i, a in steps if i == "ARG" and "=" in a)
    images = []
    for instruction, arguments in steps:
        if instruction == "FROM":
            image = arguments.split()[0]
            images.append(re.sub(r"\$\{(\w+)\}", lambda m: args[m.group(1)], image))
    return images


def test_both_images_are_here():
    assert {p.name for p in DOCKERFILES} == {"app.Dockerfile", "triton-trtllm.Dockerfile"}


@pytest.mark.parametrize("path", DOCKERFILES, ids=lambda p: p.name)
def test_dockerfile_parses_and_pins_its_base_images(path):
    steps = _instructions(path)
    assert {instruction for instruction, _ in steps} <= INSTRUCTIONS
    assert next(i for i, _ in steps if i != "ARG") == "FROM"
    images = _base_images(path)
    assert images and all(EXACT_TAG.match(image) for image in images), images
    stages = {a.split()[-1] for i, a in steps if i == "FROM" and " AS " in a.upper()}
    for _, arguments in steps:
        source = re.search(r"--from=(\S+)", arguments)
        assert source is None or source.group(1) in stages
    for pin in re.findall(r'"([A-Za-z0-9_.\-\[\]]+[=<>~!]=?[^"]*)"', path.read_text()):
        assert "==" in pin and not re.search(r"[<>~*]", pin), f"{path.name}: {pin} is not an exact pin"


def test_serving_image_is_tensorrt_llm_1_3_with_triton_and_the_project():
    path = DOCKER / "triton-trtllm.Dockerfile"
    text = path.read_text()
    images = _base_images(path)
    trtllm = next(image for image in images if "/tensorrt-llm/" in image)
    triton = next(image for image in images if "/tritonserver:" in image)
    assert trtllm == f"nvcr.io/nvidia/tensorrt-llm/release:{TRTLLM_VERSION}"
    assert triton.startswith("nvcr.io/nvidia/tritonserver:") and triton.endswith("-py3")
    assert f'"tensorrt_llm=={TRTLLM_VERSION}"' in text and f"!= '{TRTLLM_VERSION}'" in text
    assert "COPY --from=triton /opt/tritonserver /opt/tritonserver" in text
    assert 'CMD ["scripts/gpu/serve.sh"]' in text


def _makefile_packages() -> set[str]:
    makefile = (REPO_ROOT / "Makefile").read_text()
    variables = dict(re.findall(r"^(\w+_PACKAGES) := (.*)$", makefile, re.MULTILINE))
    (listed,) = re.findall(r"^system-packages:.*?for pkg in (.*?); do", makefile, re.MULTILINE | re.DOTALL)
    packages = set()
    for word in listed.split():
        variable = re.fullmatch(r"\$\((\w+)\)", word)
        packages |= set(variables[variable.group(1)].split()) if variable else {word}
    return packages


def test_app_image_installs_the_makefiles_debian_packages():
    path = DOCKER / "app.Dockerfile"
    (install,) = [a for i, a in _instructions(path) if i == "RUN" and "apt-get install" in a]
    words = install.split("apt-get install", 1)[1].split("&&", 1)[0].split()
    packages = {w for w in words if not w.startswith("-")}
    # Python comes with the image; the broker is its own service.
    assert packages == _makefile_packages() - {"python3-venv", "redis-server"}
    (base,) = _base_images(path)
    assert base.startswith("python:3.11.") and base.endswith("-slim-bookworm")
    assert '"gunicorn==' in path.read_text()  # deploy/k8s/web.yaml runs it; a dev dependency otherwise
