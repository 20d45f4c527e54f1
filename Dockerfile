# ncomplete in a container: the binary built with the `smt` feature (Z3), plus Python 3 and
# pytest to run the Python renderings. UNTESTED: no Docker engine ran this file where it was
# written. Its steps are the tested ones: scripts/install-smt's packages (tests/packaging.rs
# checks they match) and the README's build from source.
#
#   docker build -t ncomplete .
#   docker run --rm -v "$PWD:/work" ncomplete generate models/coffeemachine.dot --extra-states 1 --out suite.json
FROM rust:1-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends libz3-dev libclang-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN cargo install --locked --path . --features smt --root /opt/ncomplete

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libz3-4 python3 python3-pytest \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /opt/ncomplete/bin/ncomplete /usr/local/bin/ncomplete
WORKDIR /work
ENTRYPOINT ["ncomplete"]
CMD ["--help"]
