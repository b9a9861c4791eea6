"""The document page, its page images and crops, and the documents list with its filters.

Page images are PII: only members of the document's tenant get them, decrypted per request and
marked uncacheable; anonymous callers and other tenants get 404, exactly like a missing page.
"""

import io

import pytest
from django.urls import reverse
from PIL import Image

from apps.audit.services import audit_record
from tests.factories import make_read_document, page_png

pytestmark = pytest.mark.django_db


@pytest.fixture
def document(tenant):
    return make_read_document(tenant)


@pytest.fixture
def stranger_client(client, other_tenant, django_user_model):
    from apps.tenants.services import membership_grant

    user = django_user_model.objects.create_user(username="oscar", password="another horse battery")
    membership_grant(tenant=other_tenant, user=user, role="operator")
    client.force_login(user)
    return client


def test_document_page_shows_boxes_fields_checks_and_history(operator_client, document, operator):
    audit_record(
        tenant=document.tenant, actor=operator, action="document.status_changed", object_type="document",
        object_id=str(document.pk), data={"from": "extracted", "to": "needs_review"},
    )  # fmt: skip
    response = operator_client.get(reverse("ingestion:document_detail", args=[document.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert reverse("ingestion:page_image", args=[document.pk, 1]) in html
    # Boxes in page percentages, coloured by band: surname 97% is high, date of birth 41% is low.
    assert 'class="box band-high" style="left:25.00%;top:50.00%;width:50.00%;height:25.00%"' in html
    assert 'class="box band-low"' in html and html.count('class="box ') == 2  # no box without a bbox
    assert "ERIKSSON" in html and "97%" in html and "not found" in html
    assert "MRZ check digits" in html and "MRZ matches the printed page" in html
    assert "not found in print: surname" in html
    # each field's evidence beside its confidence: the surname's MRZ check digits, the others none
    assert '<span class="ev-tag" data-kind="mrz_check_digits" title="the machine-readable zone' in html
    assert html.count('class="ev-none"') == 2 and "no independent evidence" in html
    assert "Extracted → Needs review" in html and "olivia" in html


def test_page_image_is_served_decrypted_and_never_cached(operator_client, document):
    response = operator_client.get(reverse("ingestion:page_image", args=[document.pk, 1]))
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert response.content == page_png()
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]


@pytest.mark.parametrize(
    "route,args",
    [
        ("ingestion:page_image", [1]),
        ("ingestion:page_crop", [1]),
        ("ingestion:field_crop", ["surname"]),
        ("ingestion:document_detail", []),
        ("ingestion:document_result_json", []),
    ],
)
def test_another_tenants_operator_gets_404_for_everything_of_the_document(
    stranger_client, document, route, args
):
    response = stranger_client.get(reverse(route, args=[document.pk, *args]), {"box": "0,0,1,1"})
    assert response.status_code == 404


@pytest.mark.parametrize("route,args", [("ingestion:page_image", [1]), ("ingestion:field_crop", ["surname"])])
def test_anonymous_callers_get_404_for_page_images_not_a_login_redirect(client, document, route, args):
    assert client.get(reverse(route, args=[document.pk, *args])).status_code == 404


def test_a_page_past_the_last_is_not_found(operator_client, document):
    assert operator_client.get(reverse("ingestion:page_image", args=[document.pk, 2])).status_code == 404


def test_field_crop_is_the_fields_box_padded(operator_client, document):
    response = operator_client.get(reverse("ingestion:field_crop", args=[document.pk, "surname"]))
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    crop = Image.open(io.BytesIO(response.content))
    # The box is 200 x 75 px of a 400 x 300 page; 2% padding adds 8 px and 6 px on each side.
    assert crop.size == (216, 87)
    assert crop.getpixel((108, 43)) == (200, 30, 30)


def test_field_without_a_box_has_no_crop(operator_client, document):
    url = reverse("ingestion:field_crop", args=[document.pk, "personal_number"])
    assert operator_client.get(url).status_code == 404


def test_page_crop_takes_a_box_and_refuses_a_malformed_one(operator_client, document):
    url = reverse("ingestion:page_crop", args=[document.pk, 1])
    crop = Image.open(io.BytesIO(operator_client.get(url, {"box": "0,0,0.5,0.5"}).content))
    assert crop.size == (208, 156)
    for bad in ("", "1,2,3", "0.5,0.5,0.1,0.1", "a,b,c,d", "nan,0,1,1"):
        assert operator_client.get(url, {"box": bad}).status_code == 400, bad


def test_documents_list_filters_by_status_type_and_name(operator_client, tenant):
    make_read_document(tenant, status="needs_review", name="alpha-passport.png")
    make_read_document(tenant, status="auto_approved", name="beta-passport.png")
    url = reverse("ingestion:document_list")

    def names(**query):
        return [d.original_name for d, _, _ in operator_client.get(url, query).context["documents"]]

    assert sorted(names()) == ["alpha-passport.png", "beta-passport.png"]
    assert names(status="needs_review") == ["alpha-passport.png"]
    assert names(status="in_flight") == []
    assert names(document_type="receipt") == []
    assert names(q="BETA") == ["beta-passport.png"]


def test_documents_list_shows_no_other_tenants_documents(operator_client, other_tenant):
    make_read_document(other_tenant, name="theirs.png")
    response = operator_client.get(reverse("ingestion:document_list"))
    assert b"theirs.png" not in response.content and response.context["page"].paginator.count == 0


def test_history_says_why_a_document_went_to_review_without_ids(operator_client, document):
    audit_record(
        tenant=document.tenant, actor=None, action="review.task_created", object_type="document",
        object_id=str(document.pk),
        data={
            "document": str(document.pk), "queue": "4f39d1ad-1855-4571-8c4a-6983611ef3f1", "kind": "review",
            "reasons": ["surname below confidence threshold", "date_of_birth invalid"],
            "due_at": "2026-12-01T08:54:12.389830+00:00",
        },
    )  # fmt: skip
    html = operator_client.get(reverse("ingestion:document_detail", args=[document.pk])).content.decode()
    entry = html[html.index("Sent to review") :].split("</li>")[0]
    assert "Reasons: surname below confidence threshold; date_of_birth invalid" in entry
    assert "Due at: 2026-12-01 08:54" in entry and "Kind: review" in entry
    assert "4f39d1ad" not in entry and "document" not in entry.lower()
