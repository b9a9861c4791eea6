from django.urls import path

from apps.webhooks import views

app_name = "webhooks"

urlpatterns = [
    path("webhooks/dead-letters/", views.dead_letters, name="dead_letters"),
    path("webhooks/dead-letters/redrive/", views.dead_letters_redrive, name="dead_letters_redrive"),
]
