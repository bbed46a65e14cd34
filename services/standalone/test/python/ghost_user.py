"""User deletion through python-gitlab: gl.users.delete(id) keeps contributions (the Ghost User
takes them), gl.users.delete(id, hard_delete=True) deletes them."""
from common import arg, client, emit

gl = client()
kept, gone = int(arg("kept")), int(arg("gone"))
gl.users.delete(kept)
gl.users.delete(gone, hard_delete=True)
emit({"deleted": [kept, gone]})
