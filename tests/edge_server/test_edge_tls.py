"""The edge service over TLS and mutual TLS, with certificates made here for each test.

A throwaway CA signs a server certificate for ``localhost`` (SAN DNS:localhost and
IP:127.0.0.1) and a client certificate; a second, unrelated CA signs another client
certificate that the server must refuse. Every failure is a short deadline, never a hang.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import ssl
from dataclasses import dataclass
from pathlib import Path

import grpc
import httpx
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from edge_server.client import Client
from edge_server.v1 import ragcore_pb2 as pb

pytestmark = pytest.mark.integration

QUESTION = "How often should the CP-200 seal be replaced?"
TIMEOUT = 10.0


# -- certificates -------------------------------------------------------------------------
@dataclass(frozen=True)
class Issued:
    """A certificate and its key, as PEM files."""

    cert: Path
    key: Path


class CertificateAuthority:
    """A self-signed CA that issues leaf certificates, all written to ``directory``."""

    def __init__(self, directory: Path, name: str) -> None:
        self.directory = directory
        self.name = name
        self._key = ec.generate_private_key(ec.SECP256R1())
        subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"{name} test CA")])
        self._subject = subject
        self._cert = (
            _builder(subject, subject, self._key.public_key())
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(
                x509.KeyUsage(
                    digital_signature=True,
                    key_cert_sign=True,
                    crl_sign=True,
                    content_commitment=False,
                    key_encipherment=False,
                    data_encipherment=False,
                    key_agreement=False,
                    encipher_only=False,
                    decipher_only=False,
                ),
                critical=True,
            )
            .sign(self._key, hashes.SHA256())
        )
        self.cert = directory / f"{name}-ca.pem"
        self.cert.write_bytes(self._cert.public_bytes(serialization.Encoding.PEM))

    def issue(self, name: str, *, server: bool) -> Issued:
        """A leaf certificate: for the server (localhost, 127.0.0.1) or for a client."""
        key = ec.generate_private_key(ec.SECP256R1())
        subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
        usage = ExtendedKeyUsageOID.SERVER_AUTH if server else ExtendedKeyUsageOID.CLIENT_AUTH
        builder = (
            _builder(subject, self._subject, key.public_key())
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
        )
        if server:
            builder = builder.add_extension(
                x509.SubjectAlternativeName(
                    [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
                ),
                critical=False,
            )
        cert = builder.sign(self._key, hashes.SHA256())
        issued = Issued(
            self.directory / f"{self.name}-{name}.pem", self.directory / f"{self.name}-{name}.key"
        )
        issued.cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
        issued.key.write_bytes(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
        return issued


def _builder(subject: x509.Name, issuer: x509.Name, public_key) -> x509.CertificateBuilder:
    now = dt.datetime.now(dt.UTC)
    return (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(public_key)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
    )


@dataclass(frozen=True)
class Pki:
    ca: CertificateAuthority
    server: Issued
    client: Issued
    other_ca: CertificateAuthority  # unrelated to the server
    stranger: Issued  # a client certificate signed by other_ca


@pytest.fixture
def pki(tmp_path) -> Pki:
    directory = tmp_path / "pki"
    directory.mkdir()
    ca = CertificateAuthority(directory, "trusted")
    other = CertificateAuthority(directory, "unrelated")
    return Pki(
        ca=ca,
        server=ca.issue("localhost", server=True),
        client=ca.issue("client", server=False),
        other_ca=other,
        stranger=other.issue("stranger", server=False),
    )


def assert_refused(client: Client) -> None:
    """The rpc fails at the connection (UNAVAILABLE) and nothing is answered."""
    with pytest.raises(grpc.RpcError) as error:
        client.ask(QUESTION, timeout=TIMEOUT)
    assert error.value.code() == grpc.StatusCode.UNAVAILABLE, error.value.details()


def assert_answers(client: Client) -> None:
    answer = client.ask(QUESTION, timeout=TIMEOUT)
    assert answer.status == pb.ANSWER_STATUS_OK, answer.text
    assert answer.citations and "1500" in answer.text


# -- TLS ----------------------------------------------------------------------------------
@pytest.fixture
def tls_server(start_edge, pki):
    _server, target = start_edge(tls_cert=pki.server.cert, tls_key=pki.server.key)
    return target


def test_a_client_trusting_the_ca_asks_over_tls(tls_server, pki):
    with Client(tls_server, tls_ca=pki.ca.cert) as client:
        assert_answers(client)
    # The certificate names localhost too.
    with Client(tls_server, tls_ca=pki.ca.cert, server_name="localhost") as client:
        assert client.health(timeout=TIMEOUT) == "SERVING"


def test_a_plaintext_client_cannot_talk_to_the_tls_port(tls_server):
    with Client(tls_server) as client:
        assert_refused(client)


def test_a_client_trusting_another_ca_refuses_the_server(tls_server, pki):
    with Client(tls_server, tls_ca=pki.other_ca.cert) as client:
        assert_refused(client)


def test_a_name_the_certificate_does_not_have_is_refused(tls_server, pki):
    with Client(tls_server, tls_ca=pki.ca.cert, server_name="elsewhere.example") as client:
        assert_refused(client)


# -- mutual TLS ---------------------------------------------------------------------------
@pytest.fixture
def mtls_server(start_edge, pki):
    _server, target = start_edge(
        tls_cert=pki.server.cert, tls_key=pki.server.key, tls_client_ca=pki.ca.cert
    )
    return target


def test_a_client_certificate_from_the_ca_is_let_in(mtls_server, pki):
    with Client(
        mtls_server, tls_ca=pki.ca.cert, client_cert=pki.client.cert, client_key=pki.client.key
    ) as client:
        assert_answers(client)


def test_without_a_client_certificate_the_server_refuses(mtls_server, pki):
    with Client(mtls_server, tls_ca=pki.ca.cert) as client:
        assert_refused(client)


def test_a_client_certificate_from_another_ca_is_refused(mtls_server, pki):
    with Client(
        mtls_server,
        tls_ca=pki.ca.cert,
        client_cert=pki.stranger.cert,
        client_key=pki.stranger.key,
    ) as client:
        assert_refused(client)


# -- TLS and tokens -----------------------------------------------------------------------
def test_tls_and_tokens_together(start_edge, pki, tmp_path, monkeypatch):
    for variable in ("RAGCORE_READER_TOKENS", "RAGCORE_ADMIN_TOKENS"):
        monkeypatch.delenv(variable, raising=False)
    reader = "reader-token-" + "r" * 24
    tokens = tmp_path / "tokens"
    tokens.write_text(f"reader {reader}\nadmin admin-token-{'a' * 24}\n", "utf-8")
    _server, target = start_edge(
        tls_cert=pki.server.cert, tls_key=pki.server.key, tokens_file=tokens
    )
    with Client(target, tls_ca=pki.ca.cert, token=reader) as client:
        reply = client.search("CP-200 mechanical seal", timeout=TIMEOUT, k=3)
        assert reply.hits
        assert any("cp200" in hit.document_id for hit in reply.hits)
    # TLS alone does not let a caller without a token in.
    with Client(target, tls_ca=pki.ca.cert) as client, pytest.raises(grpc.RpcError) as error:
        client.search("CP-200 mechanical seal", timeout=TIMEOUT)
    assert error.value.code() == grpc.StatusCode.UNAUTHENTICATED


# -- the HTTP API under the same certificates ---------------------------------------------
def test_the_http_api_is_https_with_the_same_certificate(start_edge, pki):
    server, _ = start_edge(tls_cert=pki.server.cert, tls_key=pki.server.key, http_port=0)
    base = f"https://127.0.0.1:{server.http_port}"
    with httpx.Client(base_url=base, verify=_trusting(pki.ca), timeout=TIMEOUT) as http:
        answer = http.post("/v1/ask", json={"question": QUESTION}).json()
        assert answer["status"] == "ANSWER_STATUS_OK" and "1500" in answer["text"]
    with pytest.raises(httpx.ConnectError):  # not trusted: another CA
        httpx.get(f"{base}/v1/health", verify=_trusting(pki.other_ca), timeout=TIMEOUT)
    with pytest.raises(httpx.HTTPError):  # no plaintext on the TLS port
        httpx.get(f"http://127.0.0.1:{server.http_port}/v1/health", timeout=TIMEOUT)


def test_the_http_api_requires_client_certificates_under_mutual_tls(start_edge, pki):
    server, _ = start_edge(
        tls_cert=pki.server.cert,
        tls_key=pki.server.key,
        tls_client_ca=pki.ca.cert,
        http_port=0,
    )
    url = f"https://127.0.0.1:{server.http_port}/v1/health"
    with_certificate = _trusting(pki.ca)
    with_certificate.load_cert_chain(pki.client.cert, pki.client.key)
    assert httpx.get(url, verify=with_certificate, timeout=TIMEOUT).json()["status"] == "SERVING"
    stranger = _trusting(pki.ca)
    stranger.load_cert_chain(pki.stranger.cert, pki.stranger.key)
    for context in (_trusting(pki.ca), stranger):
        with pytest.raises(httpx.HTTPError):
            httpx.get(url, verify=context, timeout=TIMEOUT)


def _trusting(ca: CertificateAuthority) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=str(ca.cert))
