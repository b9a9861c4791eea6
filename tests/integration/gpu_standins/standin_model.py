"""Stand-in for the Gemma 4 models on CPU: the same input and output tensors, canned answers.

Copied into a temporary model repository as ``gemma4_e4b/1/model.py`` and
``gemma4_26b_a4b/1/model.py`` beside the real ``config.pbtxt`` files, so ``doc_pipeline``'s GPU
variant runs unchanged against it. It checks what a real model would need (one prompt, page
images as data: URIs, a JSON Schema) and answers with JSON that validates against the schema it
was sent, cut into 3-character "tokens" with known log-probabilities:

* every token's probability is 0.97, except a token containing a digit: 0.8;
* the classifier answers ``receipt`` for a first page 2 pixels wide, else ``passport``;
* text fields are filled from ``CANNED`` (``merchant_name`` is the model's own name, so a test
  can see which model extracted), everything else is null.
"""

import base64
import json
import math
import struct

import jsonschema
import numpy as np
import triton_python_backend_utils as pb_utils

CANNED = {
    "document_number": "L898902C3",
    "surname": "ERIKSSON",
    "given_names": "ANNA MARIA",
    "nationality": "UTO",
    "date_of_birth": "1974-08-12",
    "sex": "F",
    "date_of_expiry": "2012-04-15",
    "issuing_country": "UTO",
    "mrz_lines": [
        "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<",
        "L898902C36UTO7408122F1204159ZE184226B<<<<<10",
    ],
    "date": "2024-03-05",
    "currency": "EUR",
    "total_amount": "12.50",
    "policy_number": "PX-7",
}


def _strings(request, name):
    tensor = pb_utils.get_input_tensor_by_name(request, name)
    if tensor is None:
        return []
    return [v.decode("utf-8") for v in tensor.as_numpy().reshape(-1)]


class TritonPythonModel:
    def initialize(self, args):
        self.name = json.loads(args["model_config"])["name"]

    def _answer(self, schema, first_image):
        properties = schema["properties"]
        if "document_type" in properties:
            png = base64.b64decode(first_image.split(",", 1)[1])
            width = struct.unpack(">I", png[16:20])[0] if png.startswith(b"\x89PNG") else 0
            return {"document_type": "receipt" if width == 2 else "passport"}
        canned = dict(CANNED, merchant_name=self.name.upper())
        return {name: canned.get(name) for name in properties}

    def execute(self, requests):
        responses = []
        for request in requests:
            prompts = _strings(request, "text_input")
            images = _strings(request, "image_url")
            schemas = _strings(request, "guided_json")
            if len(prompts) != 1 or not images or len(schemas) != 1:
                responses.append(pb_utils.InferenceResponse(error=pb_utils.TritonError("bad request")))
                continue
            if not all(i.startswith(("data:image/png;base64,", "data:image/jpeg;base64,")) for i in images):
                responses.append(pb_utils.InferenceResponse(error=pb_utils.TritonError("not a data URI")))
                continue
            schema = json.loads(schemas[0])
            answer = self._answer(schema, images[0])
            jsonschema.validate(answer, schema)  # a guided decoder could not write anything else
            text = json.dumps(answer)
            offsets = [(i, min(i + 3, len(text))) for i in range(0, len(text), 3)]
            logprobs = [math.log(0.8 if any(c.isdigit() for c in text[a:b]) else 0.97) for a, b in offsets]
            outputs = [
                pb_utils.Tensor("text_output", np.array([text.encode()], dtype=np.object_)),
                pb_utils.Tensor("finish_reason", np.array([b"stop"], dtype=np.object_)),
                pb_utils.Tensor("output_token_ids", np.arange(len(offsets), dtype=np.int32)),
                pb_utils.Tensor("output_log_probs", np.array(logprobs, dtype=np.float32)),
                pb_utils.Tensor("output_token_offsets", np.array(offsets, dtype=np.int32).reshape(-1, 2)),
            ]
            responses.append(pb_utils.InferenceResponse(output_tensors=outputs))
        return responses
