from django.urls import path

from apps.cases import views

app_name = "cases"

urlpatterns = [
    path("cases/", views.case_queue, name="case_queue"),
    path("cases/next/", views.case_next, name="case_next"),
    path("cases/<str:case_id>/", views.case_detail, name="case_detail"),
    path("cases/<str:case_id>/decide/", views.case_decide, name="case_decide"),
    path("cases/<str:case_id>/packets/<str:packet_id>/split/", views.packet_resplit, name="packet_resplit"),
]
